import { describe, expect, it } from 'vitest';
import { rankLibraries } from './resolve-library.js';

const libraries = ['pytest', 'libssh', 'gnuplot', 'scikit-learn', 'next.js', 'node_postgres', 'pytest-asyncio', 'vue'];

describe('resolving a library name as typed', () => {
  it.each([
    ['exact name', 'pytest', 'pytest'],
    ['different case', 'PyTest', 'pytest'],
    ['different case', 'GNUPLOT', 'gnuplot'],
    ['- for _', 'node-postgres', 'node_postgres'],
    ['. for -', 'scikit.learn', 'scikit-learn'],
    ['_ for .', 'next_js', 'next.js'],
    ['no separator', 'nextjs', 'next.js'],
    ['space for -', 'scikit learn', 'scikit-learn'],
    ['a letter changed', 'pytast', 'pytest'],
    ['a letter left out', 'libsh', 'libssh'],
    ['a letter added', 'gnupplot', 'gnuplot'],
    ['two letters swapped', 'gnulpot', 'gnuplot'],
    ['a short name, one letter off', 'vua', 'vue'],
  ])('%s: %s → %s first', (_, typed, expected) => {
    expect(rankLibraries(typed, libraries)[0]?.library).toBe(expected);
  });

  it('ranks the exact name above a longer name that contains it', () => {
    expect(rankLibraries('pytest', libraries).map((candidate) => candidate.library)).toEqual(['pytest', 'pytest-asyncio']);
  });

  it('offers nothing for a name far from every library', () => {
    expect(rankLibraries('tensorflow', libraries)).toEqual([]);
  });
});
