import { describe, expect, it } from 'vitest';
import { summariseSources } from './catalog.js';

describe('sources summary', () => {
  it('groups pages by origin, names each group by the folder its pages share, largest first', () => {
    expect(
      summariseSources([
        'https://www.postgresql.org/docs/16/sql-createindex.html',
        'https://www.postgresql.org/docs/16/indexes.html',
        'https://www.postgresql.org/docs/16/tutorial/start.html',
        'https://docs.python.org/3/library/json.html',
        'file:///home/me/docs/guide.md',
        'file:///home/me/docs/api/index.md',
      ]),
    ).toEqual([
      { url: 'https://www.postgresql.org/docs/16/', pages: 3 },
      { url: 'file:///home/me/docs/', pages: 2 },
      { url: 'https://docs.python.org/3/library/', pages: 1 },
    ]);
  });

  it('names a site whose pages share no folder by its origin', () => {
    expect(summariseSources(['https://a.example/x.html', 'https://a.example/y/z.html'])).toEqual([{ url: 'https://a.example/', pages: 2 }]);
  });
});
