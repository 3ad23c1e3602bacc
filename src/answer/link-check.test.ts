import { describe, expect, it } from 'vitest';
import { type AnchorMap, checkLink } from './link-check.js';

const anchors: AnchorMap = {
  hasPage: (url) => url === 'https://d.example/a.html',
  anchorsOf: (url) => new Set(url === 'https://d.example/a.html' ? ['install', 'json.dumps', 'with space'] : []),
};

describe('checkLink', () => {
  it('accepts a page that is indexed, with an anchor that exists on it (encoded or not)', () => {
    expect(checkLink('https://d.example/a.html', anchors)).toEqual({ ok: true, url: 'https://d.example/a.html' });
    expect(checkLink('https://d.example/a.html#json.dumps', anchors).ok).toBe(true);
    expect(checkLink('https://d.example/a.html#with%20space', anchors).ok).toBe(true);
  });

  it('drops an anchor the page does not have, keeping the page link, and says so', () => {
    expect(checkLink('https://d.example/a.html#nope', anchors)).toEqual({
      ok: false, url: 'https://d.example/a.html', warning: 'Removed #nope from https://d.example/a.html: the page has no such anchor.',
    });
  });

  it('unlinks a page that is not in the index', () => {
    expect(checkLink('https://d.example/missing.html#install', anchors)).toMatchObject({ ok: false, url: undefined });
  });
});
