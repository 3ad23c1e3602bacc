import { describe, expect, it } from 'vitest';
import type { Candidate } from '../core/types.js';
import { candidate } from '../testing/candidates.js';
import { liftGuideSections } from './guide-sections.js';

const API = 'https://d.example/group__sftp.html';
const TUTORIAL = 'https://d.example/tutor_sftp.html';

const entry = (anchor: string, name: string, score: number) => candidate({ url: API, anchor, headingPath: [`${name}()`], text: `## ${name}()\n\nint ${name}(sftp_session sftp)`, score });
const open = entry('ga1', 'sftp_open', 1);
const write = entry('ga2', 'sftp_write', 0.9);
const error = entry('ga3', 'sftp_get_error', 0.8);
const guideText = `You open the remote file with [sftp_open()](${API}#ga1), then you write to it with [sftp_write()](${API}#ga2), just as you would with a local file.`;
const guide = (text = guideText, headingPath = ['Copying a file to the remote computer']) => candidate({ url: TUTORIAL, anchor: 'sftp_write', headingPath, text, score: 0.1 });
const order = (candidates: readonly Candidate[]) => candidates.map((found) => `${found.chunk.pageUrl.endsWith('tutor_sftp.html') ? 'guide' : found.chunk.anchor}`);

describe('liftGuideSections', () => {
  it('lifts a tutorial section that links to two passages found on another page to just below the best of them, and says so', () => {
    const lifted = liftGuideSections([open, write, error, guide()]);
    expect(order(lifted)).toEqual(['ga1', 'guide', 'ga2', 'ga3']);
    const step = lifted[1]?.trace.at(-1);
    expect(step).toMatchObject({ technique: 'guide', rank: 2 });
    expect(step?.detail).toContain(`${API}#ga1`);
    expect(lifted[1]?.scores.fused).toBeLessThan(1);
  });

  it('gains the linked scores over the square root of its links, so a section that barely links them moves less', () => {
    const many = Array.from({ length: 14 }, (_, index) => `[other ${index}](https://d.example/x${index}.html#y)`).join(' and ');
    const linkHeavy = guide(`${guideText} You may also read ${many} and the rest of the long explanation you need before you go on with the tutorial of this section, which goes on for a while to keep the link words a minority of its words.`);
    const lifted = liftGuideSections([open, write, error, linkHeavy]);
    expect(order(lifted)).toEqual(['ga1', 'ga2', 'ga3', 'guide']);
    expect(lifted[3]?.scores.fused).toBeGreaterThan(0.1);
  });

  it('lifts no API entry, no section linking to one passage found or only to its own page, none that is mostly links, none that does not speak to its reader', () => {
    const names = candidate({ url: TUTORIAL, anchor: 'x', headingPath: ['sftp_helper()'], text: guideText, score: 0.1 });
    const one = guide(`You open the remote file with [sftp_open()](${API}#ga1) first.`);
    const samePage = candidate({ url: API, anchor: 'details', headingPath: ['Detailed Description'], text: guideText, score: 0.1 });
    const contents = guide(`[sftp_open()](${API}#ga1) [sftp_write()](${API}#ga2) [sftp_close()](${API}#ga4) you`);
    const reference = guide(`The remote file is opened with [sftp_open()](${API}#ga1) and written with [sftp_write()](${API}#ga2).`);
    for (const notAGuide of [names, one, samePage, contents, reference]) {
      const result = liftGuideSections([open, write, error, notAGuide]);
      expect(result.at(-1)).toBe(notAGuide);
    }
  });

  it("counts the links of all the section's passages found (a long section is cut into several), but not those of a passage that is mostly links", () => {
    const prose = guide(`You must open the remote file first with [sftp_open()](${API}#ga1), as you would a local one.`);
    const example = candidate({ url: TUTORIAL, anchor: 'sftp_write', headingPath: ['Copying a file to the remote computer'], text: `\`\`\`c\nsftp_write(file, buffer, length);\n\`\`\`\n\nSee [sftp_write()](${API}#ga2) for the return values it may give.`, score: 0.05 });
    expect(order(liftGuideSections([open, write, error, prose, example]).slice(0, 2))).toEqual(['ga1', 'guide']);
    const seeAlso = candidate({ url: TUTORIAL, anchor: 'sftp_write', headingPath: ['Copying a file to the remote computer'], text: `See also: [sftp_write()](${API}#ga2), [sftp_close()](${API}#ga4), [sftp_read()](${API}#ga5)`, score: 0.05 });
    expect(liftGuideSections([open, write, error, prose, seeAlso]).at(-2)).toBe(prose);
  });

  it('reads an entry whose page URL is written with another case in its host as the target its links name', () => {
    const upperEntry = (anchor: string, name: string, score: number) => ({ ...entry(anchor, name, score), chunk: { ...entry(anchor, name, score).chunk, pageUrl: 'https://D.Example/group__sftp.html' } });
    expect(order(liftGuideSections([upperEntry('ga1', 'sftp_open', 1), upperEntry('ga2', 'sftp_write', 0.9), error, guide()]))).toEqual(['ga1', 'guide', 'ga2', 'ga3']);
  });
});
