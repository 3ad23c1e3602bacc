import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PageInspection } from '../engine/engine-types.js';
import { createEngine } from '../engine/engine.js';
import { evaluateAnswers, isWithin } from './answer-eval.js';

const page: PageInspection = {
  url: 'https://d.example/api.html',
  title: 'API',
  anchors: ['api', 'connect', 'connect-options', 'close'],
  headings: [
    { level: 1, text: 'API', anchor: 'api' },
    { level: 2, text: 'connect()', anchor: 'connect' },
    { level: 3, text: 'Options', anchor: 'connect-options' },
    { level: 2, text: 'close()', anchor: 'close' },
  ],
  chunks: [
    { anchor: 'api', headingPath: ['API'], text: 'The API.', tokenCount: 2 },
    { anchor: 'connect', headingPath: ['API', 'connect()'], text: 'Opens a connection.', tokenCount: 3 },
    { anchor: 'connect-options', headingPath: ['API', 'connect()', 'Options'], text: 'The timeout option.', tokenCount: 3 },
    { anchor: 'close', headingPath: ['API', 'close()'], text: 'Closes it.', tokenCount: 2 },
  ],
};
const inspect = (url: string) => (url === page.url ? page : undefined);
const at = (anchor: string) => ({ page: page.url, anchor });

describe('isWithin', () => {
  it('counts the gold section itself and a section nested inside it, judged by stored heading paths', () => {
    expect(isWithin(at('connect'), at('connect'), inspect)).toBe(true);
    expect(isWithin(at('connect-options'), at('connect'), inspect)).toBe(true);
    expect(isWithin(at('close'), at('connect'), inspect)).toBe(false);
    // The enclosing section is not inside the gold one: it says more than the gold section.
    expect(isWithin(at('api'), at('connect'), inspect)).toBe(false);
    expect(isWithin({ page: 'https://d.example/other.html', anchor: 'connect' }, at('connect'), inspect)).toBe(false);
  });

  it('takes a gold path without an anchor as the whole page', () => {
    expect(isWithin(at('close'), at(''), inspect)).toBe(true);
  });
});

const BASE = 'https://widget.example/docs/';
let dbPath: string;
beforeAll(async () => {
  const docs = mkdtempSync(join(tmpdir(), 'citedocs-answer-eval-'));
  mkdirSync(join(docs, 'src'));
  writeFileSync(join(docs, 'src', 'index.md'), '# Home\n\nWelcome to the widget docs.');
  writeFileSync(
    join(docs, 'src', 'api.md'),
    '# API\n\n## Connect\n\nOpens a connection to the widget server.\n\n### Connect timeout\n\nThe connect timeout is 30 seconds unless `timeoutMs` is set.\n\n## Close\n\nCloses the connection and frees the socket.',
  );
  dbPath = join(docs, 'index.db');
  const writer = createEngine({ dbPath });
  await writer.ingest(join(docs, 'src'), { baseUrl: BASE });
  await writer.close();
});

describe('evaluateAnswers', () => {
  it('reports how often the answer cites a gold section (nested ones count), the top search result, and search has gold at rank 1', async () => {
    const engine = createEngine({ dbPath, rerank: { method: 'fused' } });
    try {
      const report = await evaluateAnswers(
        engine,
        [
          { qid: 'nested', query: 'what is the connect timeout in seconds', gold: ['api#connect'] },
          { qid: 'miss', query: 'how do I close the connection and free the socket', gold: ['api#connect'] },
        ],
        BASE,
      );
      const [nested, miss] = report.perQuery;
      expect(nested?.cited[0]).toMatch(/#connect-timeout$/);
      expect(nested).toMatchObject({ citesGold: true, citesTop1: true, searchGoldAt1: true });
      expect(miss).toMatchObject({ citesGold: false, citesTop1: true, searchGoldAt1: false });
      expect(report.metrics).toEqual({ answerCitesGold: 0.5, answerCitesTop1: 1, searchGoldAt1: 0.5 });
    } finally {
      await engine.close();
    }
  });
});
