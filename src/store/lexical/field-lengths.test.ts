import { describe, expect, it } from 'vitest';
import { isStopWord } from '../../lexical/stop-words.js';
import { queryTerms } from '../../lexical/analyze.js';
import { scoreBm25f } from './bm25f.js';
import { FieldLengths } from './field-lengths.js';
import { FIELD_COUNT, FIELDS } from './fields.js';
import { buildSegment, type IndexedChunk } from './segment.js';

const CODE = FIELDS.indexOf('code');

describe('FieldLengths', () => {
  it('takes a field\'s mean over the documents that have it, and is 0 for a field none has', () => {
    const lengths = new FieldLengths();
    const row = (code: number, text: number) => Array.from({ length: FIELD_COUNT }, (_, field) => (field === CODE ? code : field === FIELDS.indexOf('text') ? text : 0));
    const all = [row(10, 4), row(0, 8), row(30, 6)].flat();
    for (let doc = 0; doc < 3; doc += 1) lengths.add(all, doc);
    const means = lengths.means();
    expect(means[CODE]).toBe(20);
    expect(means[FIELDS.indexOf('text')]).toBe(6);
    expect(means[FIELDS.indexOf('identifiers')]).toBe(0);
  });

  it('scores a code block the same however many prose passages lack code (a site that adds guides)', () => {
    const chunk = (rowId: number, heading: string, text: string): IndexedChunk => ({ rowId, chunk: { pageUrl: `https://d.example/${rowId}.html`, pageTitle: heading, headingPath: [heading], text, anchor: `a${rowId}` } });
    const code = [
      chunk(1, 'Skipping', 'Skip on one platform:\n\n```\nimport sys\npytestmark = pytest.mark.skipif(sys.platform == "win32", reason="does not run on windows")\n```'),
      chunk(2, 'Fixtures', 'A fixture:\n\n```\n@pytest.fixture\ndef smtp():\n    return connect("smtp.example.com")\n```'),
    ];
    const prose = Array.from({ length: 40 }, (_, index) => chunk(100 + index, `Release ${index}`, 'Fixes and improvements to the terminal reporter.'));
    const score = (chunks: IndexedChunk[]) => {
      const segment = buildSegment(chunks);
      const ranking = { fieldWeights: { title: 0, headings: 0, identifiers: 0, code: 1, text: 0 }, k1: 1.2, b: 0.75, linkPrior: 0, pagePrior: 0, quotedWeight: 1 };
      return scoreBm25f(segment, queryTerms('windows win32', isStopWord, 1), ranking, 1).map((doc) => ({ row: segment.docs.rowIds[doc.ordinal], mean: segment.averageLengths[CODE] }));
    };
    const alone = score(code);
    const withProse = score([...code, ...prose]);
    expect(alone[0]?.row).toBe(1);
    expect(withProse[0]?.row).toBe(1);
    expect(withProse[0]?.mean).toBe(alone[0]?.mean);
  });
});
