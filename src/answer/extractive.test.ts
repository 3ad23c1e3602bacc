import { describe, expect, it } from 'vitest';
import { candidate } from '../testing/candidates.js';
import { extractiveAnswer } from './extractive.js';

const sources = [
  candidate({ url: 'https://d.example/create.html', anchor: 'concurrently', title: 'CREATE INDEX', headingPath: ['CREATE INDEX', 'Building Indexes Concurrently'],
    text: '## Building Indexes Concurrently\n\nCreating an index can interfere with regular operation. Use the CONCURRENTLY option to build an index without locking out writes. The weather is nice.' }),
  candidate({ url: 'https://d.example/reindex.html', title: 'REINDEX',
    text: 'REINDEX rebuilds an index. Indexes can also be rebuilt concurrently with REINDEX CONCURRENTLY. Unrelated filler sentence about tables.' }),
];

describe('extractiveAnswer', () => {
  it('quotes the sentences that share the most informative words with the question, each cited', () => {
    const answer = extractiveAnswer('how do I build an index concurrently without locking writes', sources, { maxSentences: 2 });
    expect(answer.text).toContain('Use the CONCURRENTLY option to build an index without locking out writes. [1]');
    expect(answer.text).not.toContain('weather');
    for (const sentence of answer.text.split(/(?<=\])\s+/)) expect(sentence).toMatch(/\[\d+\]$/);
  });

  it('numbers sources in order of first use and cites each with its exact URL#anchor and section title', () => {
    const answer = extractiveAnswer('rebuild index concurrently', sources, { maxSentences: 3 });
    expect(answer.citations).toEqual([
      { n: 1, url: 'https://d.example/create.html#concurrently', anchor: 'concurrently', title: 'CREATE INDEX › Building Indexes Concurrently' },
      { n: 2, url: 'https://d.example/reindex.html', title: 'REINDEX' },
    ]);
    const markers = [...answer.text.matchAll(/\[(\d+)\]/g)].map((match) => Number(match[1]));
    expect(new Set(markers)).toEqual(new Set([1, 2]));
  });

  it('never quotes the same sentence twice', () => {
    const duplicated = [candidate({ text: 'Set the timeout option.', url: 'https://d.example/a' }), candidate({ text: 'Set the timeout option.', url: 'https://d.example/b' })];
    const answer = extractiveAnswer('timeout option', duplicated, { maxSentences: 5 });
    expect(answer.text.match(/Set the timeout option/g)).toHaveLength(1);
  });

  it('says the documentation does not seem to answer when no passage shares a word with the question, then quotes the opening of the best one', () => {
    const answer = extractiveAnswer('zzz qqq', sources, { maxSentences: 3 });
    expect(answer.text).toBe('The indexed documentation does not seem to answer this: no passage found mentions the words of the question. The closest section found begins:\n\nCreating an index can interfere with regular operation. [1]');
  });
});

describe('extractiveAnswer citations', () => {
  it('gives two passages of the same section one number', () => {
    const split = [
      candidate({ url: 'https://d.example/a.html', anchor: 'opts', text: 'The retries option sets how often a request is retried.' }),
      candidate({ url: 'https://d.example/b.html', text: 'Unrelated words only.' }),
      candidate({ url: 'https://d.example/a.html', anchor: 'opts', text: 'Retries back off exponentially between request attempts.' }),
    ];
    const answer = extractiveAnswer('request retries back off', split, { maxSentences: 5 });
    expect(answer.citations.map((citation) => citation.url)).toEqual(['https://d.example/a.html#opts']);
    expect(answer.text.match(/\[1\]/g)).toHaveLength(2);
  });

  it('says a statement once when another source says it in nearly the same words', () => {
    const twins = [
      candidate({ url: 'https://d.example/a', text: 'Setting statement_timeout in postgresql.conf is not recommended because it would affect all sessions.' }),
      candidate({ url: 'https://d.example/b', text: 'Setting lock_timeout in postgresql.conf is not recommended because it would affect all sessions.' }),
    ];
    const answer = extractiveAnswer('statement_timeout postgresql.conf sessions', twins, { maxSentences: 5 });
    expect(answer.text.match(/is not recommended/g)).toHaveLength(1);
    expect(answer.text).toContain('statement_timeout');
  });

  it('quotes a sentence that introduces a code block together with it, or not at all', () => {
    const withCode = [candidate({ url: 'https://d.example/p', text: 'To create a partial index on orders, use a command such as this:\n\n```sql\nCREATE INDEX orders_unbilled ON orders (order_nr) WHERE billed IS NOT TRUE;\n```\n\nA partial index covers a subset of the rows of orders.' })];
    const answer = extractiveAnswer('create a partial index on orders', withCode, { maxSentences: 5 });
    expect(answer.text).toMatch(/such as this: \[1\]\n\n```sql\nCREATE INDEX orders_unbilled/);
    const dangling = [candidate({ url: 'https://d.example/q', text: 'To create a partial index on orders, use a command such as this:\n\nA partial index covers a subset of the rows of orders.' })];
    expect(extractiveAnswer('create a partial index on orders', dangling, { maxSentences: 5 }).text).not.toContain('such as this:');
  });
});
