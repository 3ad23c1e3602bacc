import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsWorkspace } from '../testing/workspace.js';
import { createEngine, type Engine } from './engine.js';

describe('an unscoped search over several libraries', () => {
  let engine: Engine;

  beforeAll(async () => {
    // In alpha alone, "spindle" and "quark" are equally rare, so the page saying spindle four
    // times ranks first. Beta says "spindle" on every page: over both libraries the word is
    // common, and its statistics alone would put alpha's quark page first.
    const alpha = docsWorkspace({
      'spinning.md': '# Spinning\n\nThe spindle turns the wheel; a spindle, a second spindle and a third spindle.\n',
      'quirks.md': '# Quirks\n\nThe quark setting of the wheel.\n',
      'colors.md': '# Colors\n\nRed, green and blue paint for the wheel.\n',
      'sizes.md': '# Sizes\n\nSmall, medium and large wheels.\n',
    });
    const beta = docsWorkspace(Object.fromEntries(Array.from({ length: 12 }, (_, index) => [`part-${index}.md`, `# Part ${index}\n\nThe spindle of loom ${index} holds thread number ${index}.\n`])));
    engine = createEngine({ dbPath: alpha.dbPath });
    await engine.ingest(alpha.docs, { library: 'alpha' });
    await engine.ingest(beta.docs, { library: 'beta' });
  });

  afterAll(async () => {
    await engine.close();
  });

  it("lists each library's passages in the order a search scoped to it (as if indexed alone) gives them", async () => {
    const scoped = await engine.search('spindle quark', { library: 'alpha', limit: 2 });
    expect(scoped.results.map((result) => result.title)).toEqual(['Spinning', 'Quirks']);
    const unscoped = await engine.search('spindle quark', { limit: 14 });
    expect(new Set(unscoped.results.map((result) => result.library))).toEqual(new Set(['alpha', 'beta']));
    expect(unscoped.results.filter((result) => result.library === 'alpha').map((result) => result.title)).toEqual(['Spinning', 'Quirks']);
  });

  it('orders a question that names several libraries the same way: each one\'s passages as searched alone, not by their statistics together', async () => {
    const named = await engine.search('spindle quark of alpha or beta', { limit: 14 });
    expect(named.results.filter((result) => result.library === 'alpha').map((result) => result.title)).toEqual(['Spinning', 'Quirks']);
  });
});
