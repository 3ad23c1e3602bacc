import { describe, expect, it } from 'vitest';
import { definedAliasPairs, definedAliases } from './aliases.js';

describe('definedAliases', () => {
  it('reads "X (or Y)" both ways: the other name of a word the question has', () => {
    const passages = ['The **set key** command enables a key (or legend) containing a title for each plot.'];
    expect(definedAliases('use the first row as the legend titles', passages)).toEqual(['key']);
    expect(definedAliases('move the key outside the plot', passages)).toEqual(['legend']);
  });

  it('reads "X, sometimes also called Y" and "also known as", with the names quoted', () => {
    expect(definedAliases('where does the legend go', ['These may be listed in the "key", sometimes also called the "legend".'])).toEqual(['key']);
    expect(definedAliases('how do I change the viewer', ['Long output goes to the "viewer", also known as "pager".'])).toEqual(['pager']);
  });

  it('compares words as the index does: a plural in the question matches the singular in the docs', () => {
    expect(definedAliases('the legends of two plots', ['a key (or legend) for each plot'])).toEqual(['key']);
  });

  it('adds the letters of an abbreviation the docs define when the question spells it out, never the words for the letters', () => {
    const passages = ['Each entry keeps a time to live (TTL) after which it expires.'];
    expect(definedAliases('how long is the time to live of an entry', passages)).toEqual(['ttl']);
    // The other way, the spelled-out words shifted rankings on SciFact: not added.
    expect(definedAliases('change the TTL of an entry', passages)).toEqual([]);
    // Initials that do not spell it out are no definition.
    expect(definedAliases('how long do entries live', ['Entries live for a while (TTL) here.'])).toEqual([]);
  });

  it('adds nothing the question already has, nothing unrelated to it, and each name once', () => {
    expect(definedAliases('key or legend', ['a key (or legend)'])).toEqual([]);
    expect(definedAliases('plot a function', ['a key (or legend)', 'use one (or more) files'])).toEqual([]);
    expect(definedAliases('legend placement', ['a key (or legend)', 'the key (or legend) again'])).toEqual(['key']);
  });

  it('ignores stop-words, numbers and one- or two-letter words as names', () => {
    expect(definedAliases('one image', ['put graphs in one (or more) images', 'a (or b)'])).toEqual([]);
  });
});

describe('definedAliasPairs', () => {
  it("names the question's words (in the index form) each alias stands for", () => {
    expect(definedAliasPairs('use the first row as the legend titles', ['a key (or legend) for each plot'])).toEqual([{ alias: 'key', of: ['legend'] }]);
    expect(definedAliasPairs('how long is the time to live of an entry', ['Each entry keeps a time to live (TTL).'])).toEqual([{ alias: 'ttl', of: ['time', 'live'] }]);
  });
});
