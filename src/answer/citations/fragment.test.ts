import { describe, expect, it } from 'vitest';
import { chunkUrl, encodeFragment } from '../../core/types.js';
import { findAnchor } from './resolve-link.js';

describe('encodeFragment', () => {
  it('keeps an anchor readable, encodes what a fragment cannot hold, and never encodes an escape the id already holds', () => {
    expect(encodeFragment('json.dumps')).toBe('json.dumps');
    expect(encodeFragment('Calling-_002eCall')).toBe('Calling-_002eCall');
    expect(encodeFragment('a b#c')).toBe('a%20b%23c');
    expect(encodeFragment('über')).toBe('%C3%BCber');
    expect(encodeFragment('50%')).toBe('50%25');
    expect(encodeFragment('impl-Extend%3C(K%2C%20V)%3E')).toBe('impl-Extend%3C(K%2C%20V)%3E');
    expect(chunkUrl({ pageUrl: 'https://doc.example/std/struct.HashMap.html', anchor: 'impl-Extend%3C(K%2C%20V)%3E' })).toBe('https://doc.example/std/struct.HashMap.html#impl-Extend%3C(K%2C%20V)%3E');
  });

  it('gives back the anchor it was made from, as the citation check reads a fragment', () => {
    const anchors = ['json.dumps', 'a b#c', 'über', '50%', 'impl-Extend%3C(K%2C%20V)%3E', ':vimgrep'];
    for (const anchor of anchors) expect(findAnchor(new Set(anchors), encodeFragment(anchor))).toBe(anchor);
  });
});
