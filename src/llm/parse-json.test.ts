import { describe, expect, it } from 'vitest';
import { parseJsonReply } from './parse-json.js';

describe('parseJsonReply', () => {
  it('parses a plain JSON reply, with surrounding whitespace or a BOM', () => {
    expect(parseJsonReply('  {"score": 3}\n')).toEqual({ score: 3 });
    expect(parseJsonReply('\uFEFF[1, 2]')).toEqual([1, 2]);
    expect(parseJsonReply('42')).toBe(42);
  });

  it('parses the content of a ```json fence, or of a bare fence', () => {
    expect(parseJsonReply('Here you go:\n```json\n{"ids": ["a", "b"]}\n```\nAnything else?')).toEqual({ ids: ['a', 'b'] });
    expect(parseJsonReply('```\n[{"id": 1}]\n```')).toEqual([{ id: 1 }]);
    expect(parseJsonReply('```json {"inline": true}```')).toEqual({ inline: true });
  });

  it('skips a fence that does not hold JSON and uses the one that does', () => {
    expect(parseJsonReply('```ts\nconst a = 1;\n```\nThe result:\n```json\n{"a": 1}\n```')).toEqual({ a: 1 });
  });

  it('finds an object or array in prose', () => {
    expect(parseJsonReply('Sure! The ranking is {"order": [2, 0, 1]} as requested.')).toEqual({ order: [2, 0, 1] });
    expect(parseJsonReply('Relevant passages: [3, 1]. Hope this helps.')).toEqual([3, 1]);
  });

  it('prefers the longest value when the prose has other brackets, like citations', () => {
    expect(parseJsonReply('As shown in [1], the answer is {"relevant": true, "reason": "mentions [2] and {x}"}.')).toEqual({ relevant: true, reason: 'mentions [2] and {x}' });
  });

  it('ignores brackets inside strings and escaped quotes', () => {
    expect(parseJsonReply('Result: {"text": "a \\"quoted\\" } brace", "n": [1]} done')).toEqual({ text: 'a "quoted" } brace', n: [1] });
  });

  it('ignores a reasoning model\'s <think> block', () => {
    expect(parseJsonReply('<think>Maybe {"score": 1}? No, it is better.</think>\n{"score": 5}')).toEqual({ score: 5 });
  });

  it('finds the JSON of a fence the model did not close', () => {
    expect(parseJsonReply('```json\n{"complete": true}\n')).toEqual({ complete: true });
  });

  it('returns undefined when there is no JSON value', () => {
    expect(parseJsonReply('')).toBeUndefined();
    expect(parseJsonReply('I cannot answer that.')).toBeUndefined();
    expect(parseJsonReply('{"truncated": [1, 2')).toBeUndefined();
    expect(parseJsonReply('{not: json}')).toBeUndefined();
  });
});
