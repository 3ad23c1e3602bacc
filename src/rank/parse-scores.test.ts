import { describe, expect, it } from 'vitest';
import { parseScoreList } from './parse-scores.js';

describe('parseScoreList', () => {
  it.each([
    ['{"scores":[0.9,0.1,0.5]}', [0.9, 0.1, 0.5]],
    ['[0.9, 0.1, 0.5]', [0.9, 0.1, 0.5]],
    ['```json\n{"scores": [0.9, 0.1, 0.5]}\n```', [0.9, 0.1, 0.5]],
    ['{"1": 0.9, "3": 0.5}', [0.9, undefined, 0.5]],
    ['[{"id": 2, "score": 0.1}, {"id": 1, "score": 0.9}]', [0.9, 0.1, undefined]],
    ['1: 0.9\n2: 0.1\n3: 0.5', [0.9, 0.1, 0.5]],
    ['[1] 0.9\n[3] 0.5', [0.9, undefined, 0.5]],
    ['Passage 2 - 0.25 (mentions it)\n- Passage 1 = .8', [0.8, 0.25, undefined]],
    ['0.9 0.1 0.5', [0.9, 0.1, 0.5]],
    ['Scores: 0.9, 0.1 and 0.5.', [0.9, 0.1, 0.5]],
    ['<think>passage 1 looks best, 2 and 3 less</think>{"scores":[0.9,0.1,0.5]}', [0.9, 0.1, 0.5]],
  ])('reads %j', (reply, expected) => {
    expect(parseScoreList(reply, 3)).toEqual(expected);
  });

  it('clamps scores to [0, 1] and ignores extra or foreign values', () => {
    expect(parseScoreList('{"scores":[1.7,-0.2,"0.4",null,0.3]}', 3)).toEqual([1, 0, 0.4]);
    expect(parseScoreList('{"scores":[0.5,"high",0.3]}', 3)).toEqual([0.5, undefined, 0.3]);
  });

  it('gives no score rather than guessing from prose or a wrong count of numbers', () => {
    expect(parseScoreList('Passage 1 is relevant (0.9), passage 2 is not (0.1).', 3)).toEqual([undefined, undefined, undefined]);
    expect(parseScoreList('0.9 0.1', 3)).toEqual([undefined, undefined, undefined]);
    expect(parseScoreList('I cannot judge these.', 2)).toEqual([undefined, undefined]);
    expect(parseScoreList('', 1)).toEqual([undefined]);
    expect(parseScoreList('{"echo": "hello"}', 2)).toEqual([undefined, undefined]);
  });

  it('reads a single bare score for a single passage', () => {
    expect(parseScoreList('0.8', 1)).toEqual([0.8]);
    expect(parseScoreList('{"score": 0.8}', 1)).toEqual([0.8]);
  });
});
