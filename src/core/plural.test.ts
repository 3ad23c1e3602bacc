import { describe, expect, it } from 'vitest';
import { plural } from './plural.js';

describe('plural', () => {
  it('says "1 page" for one and "N pages" for every other count, zero included', () => {
    expect(plural(1, 'page')).toBe('1 page');
    expect(plural(0, 'page')).toBe('0 pages');
    expect(plural(2, 'page')).toBe('2 pages');
  });

  it('takes an irregular plural', () => {
    expect(plural(1, 'body', 'bodies')).toBe('1 body');
    expect(plural(3, 'body', 'bodies')).toBe('3 bodies');
  });
});
