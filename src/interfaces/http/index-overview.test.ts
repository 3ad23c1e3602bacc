import { describe, expect, it } from 'vitest';
import { topicsOf } from './index-overview.js';

describe('topics the chat page suggests', () => {
  it('takes leaf pages first, drops the site-name suffix and chapter numbers, skips generic and repeated titles, at most four', () => {
    const pages = [
      { url: 'https://docs.example/', title: 'Fixture DB Documentation' },
      { url: 'https://docs.example/guide/', title: 'Chapter 2. User Guide' },
      { url: 'https://docs.example/search.html', title: 'Search' },
      { url: 'https://docs.example/guide/tables/dropping.html', title: 'Dropping a table — Fixture DB 15' },
      { url: 'https://docs.example/guide/tables/altering.html', title: '5.6. Modifying Tables | Fixture DB' },
      { url: 'https://docs.example/guide/tables/dropping-again.html', title: 'Dropping a Table' },
      { url: 'https://docs.example/guide/config/timeouts.html', title: 'Configuring timeouts ¶' },
      { url: 'https://docs.example/guide/indexes/create.html', title: 'CREATE INDEX' },
    ];
    expect(topicsOf(pages)).toEqual(['Dropping a table', 'Modifying Tables', 'Configuring timeouts', 'CREATE INDEX']);
  });

  it('suggests nothing rather than noise', () => {
    expect(topicsOf([{ url: 'https://docs.example/a', title: '' }, { url: 'https://docs.example/b', title: '42' }, { url: 'https://docs.example/', title: 'Index' }])).toEqual([]);
  });
});
