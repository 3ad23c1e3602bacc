import { describe, expect, it } from 'vitest';
import { createMemoryLinkIndex } from './link-index.js';
import { findAnchor, resolveLink, type LinkContext } from './resolve-link.js';

const index = createMemoryLinkIndex([
  { url: 'https://d.example/docs/guide', anchors: ['overview'] },
  { url: 'https://d.example/docs/guide/setup.html', anchors: ['install', 'with space', 'Config'] },
  { url: 'https://d.example/docs/guide/usage.html', anchors: ['run', 'install'] },
  { url: 'https://d.example/docs/other/page', anchors: ['install', 'unique-one'] },
  { url: 'https://d.example/api/a', anchors: [] },
  { url: 'https://d.example/api/b', anchors: [] },
  { url: 'https://other.example/x', anchors: ['elsewhere'] },
]);

const none: LinkContext = { cited: [], selected: [] };
const SETUP = 'https://d.example/docs/guide/setup.html';
const USAGE = 'https://d.example/docs/guide/usage.html';

describe('resolveLink', () => {
  it('accepts a stored page and an anchor it has, spelled as stored, encoded or in another case', async () => {
    expect(await resolveLink(`${SETUP}#install`, index, none)).toEqual({ ok: true, url: `${SETUP}#install`, contextual: false });
    expect(await resolveLink('https://d.example/docs/guide/setup.md#with%20space', index, none)).toMatchObject({ ok: true, url: `${SETUP}#with%20space` });
    expect(await resolveLink(`${SETUP}#config`, index, none)).toMatchObject({ ok: true, url: `${SETUP}#Config` });
  });

  it('drops an anchor no page has, keeping the page, and says so', async () => {
    expect(await resolveLink(`${SETUP}#invented`, index, none)).toEqual({
      ok: true, url: SETUP, note: `Removed #invented from ${SETUP}: no indexed page has that anchor.`, contextual: false,
    });
  });

  it('moves an anchor to the only page that has it', async () => {
    expect(await resolveLink(`${SETUP}#unique-one`, index, none)).toMatchObject({ ok: true, url: 'https://d.example/docs/other/page#unique-one', contextual: true });
  });

  it('moves an anchor several pages have to the one the sentence cites, before the one under the linked page', async () => {
    const context: LinkContext = { cited: ['https://d.example/docs/other/page'], selected: [] };
    expect(await resolveLink('https://d.example/docs/guide#install', index, context)).toMatchObject({ ok: true, url: 'https://d.example/docs/other/page#install' });
  });

  it('moves an anchor several pages have to the one selected source among them', async () => {
    const context: LinkContext = { cited: [], selected: [USAGE, 'https://d.example/api/a'] };
    expect(await resolveLink('https://d.example/api/a#install', index, context)).toMatchObject({ ok: true, url: `${USAGE}#install` });
  });

  it('unlinks an anchor several pages have when nothing tells them apart', async () => {
    expect(await resolveLink('https://d.example/api/a#install', index, none)).toMatchObject({ ok: false, contextual: true, reason: expect.stringContaining('the context does not say which') });
    const twoCited: LinkContext = { cited: [SETUP, USAGE], selected: [] };
    expect((await resolveLink('https://d.example/api/a#install', index, twoCited)).ok).toBe(false);
  });

  it('replaces a folder URL by the only page under it that has the anchor', async () => {
    expect(await resolveLink('https://d.example/docs/guide/#run', index, none)).toMatchObject({ ok: true, url: `${USAGE}#run` });
  });

  it('replaces a folder URL by the page under it that the sentence cites, dropping an anchor none of them has', async () => {
    expect(await resolveLink('https://d.example/api/', index, { cited: ['https://d.example/api/b'], selected: [] })).toMatchObject({ ok: true, url: 'https://d.example/api/b' });
    const verdict = await resolveLink('https://d.example/api#nope', index, { cited: ['https://d.example/api/b'], selected: [] });
    expect(verdict).toMatchObject({ ok: true, url: 'https://d.example/api/b', note: expect.stringContaining('#nope is on none of them') });
  });

  it('unlinks a folder URL when several pages under it fit', async () => {
    expect(await resolveLink('https://d.example/api/', index, none)).toMatchObject({ ok: false, contextual: true });
  });

  it('unlinks an invented page, unless a cited source on the same site has its anchor', async () => {
    expect(await resolveLink('https://d.example/made/up', index, none)).toEqual({ ok: false, reason: 'no such page in the index.', contextual: false });
    expect(await resolveLink('https://d.example/made/up#run', index, none)).toMatchObject({ ok: false, contextual: true });
    expect(await resolveLink('https://d.example/made/up#run', index, { cited: [USAGE], selected: [] })).toMatchObject({ ok: true, url: `${USAGE}#run` });
    expect((await resolveLink('https://d.example/made/up#elsewhere', index, { cited: ['https://other.example/x'], selected: [] })).ok).toBe(false);
  });
});

describe('findAnchor', () => {
  it('matches as written, decoded, or by case when only one anchor differs by case', async () => {
    const anchors = new Set(['a b', 'json.dumps', 'Setup', 'x', 'X']);
    expect(findAnchor(anchors, 'a%20b')).toBe('a b');
    expect(findAnchor(anchors, 'json.dumps')).toBe('json.dumps');
    expect(findAnchor(anchors, 'setup')).toBe('Setup');
    expect(findAnchor(anchors, 'x')).toBe('x');
    expect(findAnchor(new Set(['x', 'X']), 'x')).toBe('x');
    expect(findAnchor(new Set(['Ab', 'AB']), 'ab')).toBeUndefined();
    expect(findAnchor(anchors, '%E0%A4%A')).toBeUndefined();
  });
});
