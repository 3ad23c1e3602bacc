import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Chunk } from '../core/types.js';
import { loadTokenizer } from '../tokenize/tokenizer.js';
import { trimPassage } from './trim.js';

const tokenizer = await loadTokenizer('o200k_base');
const relevance = (text: string) => (text.includes('backoff') ? 2 : 0) + (text.includes('delay') ? 1 : 0);
const chunkOf = (text: string): Chunk => ({ id: 'c', pageUrl: 'https://d.example/p.html', pageTitle: 'P', anchor: 'backoff', headingPath: ['P', 'Backoff'], text, tokenCount: tokenizer.count(text), contentHash: 'h' });

const text = [
  '## Backoff',
  'Words about colours and shapes that answer nothing at all here.',
  'The backoff doubles the delay after each failed request.',
  '```python\nclient.retry(backoff=2)\n\nclient.send()\n```',
  'More words about fonts and margins that answer nothing either.',
].join('\n\n');

describe('trimPassage', () => {
  it('keeps the heading and the most relevant blocks, marks what it left out, and keeps the anchor', () => {
    const trimmed = trimPassage(chunkOf(text), 40, tokenizer, relevance);
    expect(trimmed?.text.startsWith('## Backoff\n\n')).toBe(true);
    expect(trimmed?.text).toContain('The backoff doubles the delay after each failed request.');
    expect(trimmed?.text).toContain('…');
    expect(trimmed?.text).not.toContain('colours');
    expect(trimmed?.anchor).toBe('backoff');
    expect(trimmed?.tokenCount).toBeLessThanOrEqual(40);
  });

  it('returns a passage that fits unchanged, and nothing when not even its heading fits', () => {
    expect(trimPassage(chunkOf(text), 1000, tokenizer, relevance)?.text).toBe(text);
    expect(trimPassage(chunkOf(text), 2, tokenizer, relevance)).toBeUndefined();
  });

  it('fits any budget it accepts and never leaves a code fence open (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 120 }), (maxTokens) => {
        const trimmed = trimPassage(chunkOf(text), maxTokens, tokenizer, relevance);
        if (trimmed === undefined) return;
        expect(tokenizer.count(trimmed.text)).toBeLessThanOrEqual(maxTokens);
        expect(trimmed.tokenCount).toBe(tokenizer.count(trimmed.text));
        expect((trimmed.text.match(/^```/gm) ?? []).length % 2).toBe(0);
      }),
    );
  });
});
