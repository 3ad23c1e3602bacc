import { describe, expect, it } from 'vitest';
import { numberWords } from './number-words.js';

describe('numberWords', () => {
  it('writes a small number standing alone as the word prose uses: cardinals and ordinals', () => {
    expect(numberWords('only plot points where column 3 is larger than 10')).toEqual(['three', 'ten']);
    expect(numberWords('plot every 10th point, then the 2nd and 3rd column')).toEqual(['tenth', 'second', 'third']);
    expect(numberWords('the 1st, 11th, 12th and 21st')).toEqual(['first', 'eleventh', 'twelfth']);
    expect(numberWords('wait 0 seconds, then 12.')).toEqual(['zero', 'twelve']);
  });

  it('each word once, and none for a number past twelve or a wrong suffix', () => {
    expect(numberWords('3 files and 3 folders')).toEqual(['three']);
    expect(numberWords('convert 13 or 484 to binary')).toEqual([]);
    expect(numberWords('the 2th and 3st')).toEqual([]);
  });

  it('never a digit inside a decimal, version, thousands, range, time, hyphenated word or name', () => {
    expect(numberWords('closest to 11.5 in Python 3.11')).toEqual([]);
    expect(numberWords('1,000 children, 4-PBA, 5\' ends, 15-Jan-2023 at 10:30')).toEqual([]);
    expect(numberWords('route v2 to md5 and -1 or 2/3')).toEqual([]);
    expect(numberWords('set level=3 for issue #3, the top 10% and 05 or 00')).toEqual([]);
  });

  it("never the asker's quoted values", () => {
    expect(numberWords("get top `3` items and key '7'")).toEqual([]);
  });
});
