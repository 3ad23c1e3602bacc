import { describe, expect, it } from 'vitest';
import { UsageError } from '../core/errors.js';
import { pickVersion, resolveScope } from './scope.js';

const sources = [
  { id: 1, library: 'django', version: '4.2' },
  { id: 2, library: 'django', version: '5.0' },
  { id: 3, library: 'django', version: '5.2' },
  { id: 4, library: 'pytest', version: 'latest' },
  { id: 5, library: 'postgres', version: '15' },
  { id: 6, library: 'postgres', version: '9.6' },
];

describe('version requests', () => {
  it.each([
    ['5.0', '5.0'],
    ['v5.0', '5.0'],
    ['5.0.0', '5.0'],
    ['5.x', '5.2'],
    ['>=4.2 <5', '4.2'],
    ['^5.0', '5.2'],
    ['latest', '5.2'],
    ['LATEST', '5.2'],
  ])('%s picks %s of 4.2, 5.0, 5.2', (request, expected) => {
    expect(pickVersion(['4.2', '5.0', '5.2'], request)).toBe(expected);
  });

  it('orders versions like 15 and 9.6 as numbers, not strings: latest is 15', () => {
    expect(pickVersion(['9.6', '15'], 'latest')).toBe('15');
  });

  it('never substitutes a version that was not asked for', () => {
    expect(pickVersion(['4.2', '5.0'], '5.1')).toBeUndefined();
    expect(pickVersion(['4.2', '5.0'], '6.x')).toBeUndefined();
    expect(pickVersion(['4.2', '5.0'], 'nightly')).toBeUndefined();
  });

  it('takes latest to be the source called latest when no version is numbered', () => {
    expect(pickVersion(['latest'], 'latest')).toBe('latest');
  });
});

describe('scopes', () => {
  it('scopes a library to its latest version, and a version alone to each library that has it', () => {
    expect(resolveScope(sources, { library: 'django' })?.map((source) => source.id)).toEqual([3]);
    expect(resolveScope(sources, { library: 'Django', version: '4.2' })?.map((source) => source.id)).toEqual([1]);
    expect(resolveScope(sources, { version: '15' })?.map((source) => source.id)).toEqual([5]);
    expect(resolveScope(sources, {})).toBeUndefined();
  });

  it('refuses an unknown library, listing the libraries and their versions', () => {
    expect(() => resolveScope(sources, { library: 'flask' })).toThrow(UsageError);
    expect(() => resolveScope(sources, { library: 'flask' })).toThrow(/No library "flask".*django \(5\.2, 5\.0, 4\.2\), postgres \(15, 9\.6\), pytest \(latest\)/);
  });

  it('refuses an unknown version, listing the versions there are', () => {
    expect(() => resolveScope(sources, { library: 'django', version: '3.2' })).toThrow(/No version matches "3\.2" for django: django has 5\.2, 5\.0, 4\.2/);
  });
});
