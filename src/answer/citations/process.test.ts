import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemoryLinkIndex } from './link-index.js';
import { formatSourcesList, processCitations, type Source } from './process.js';

// The pages of seed 001 (aptos.dev), and a site with .html pages under a folder that is no page.
const index = createMemoryLinkIndex([
  { url: 'https://aptos.dev/en/build/guides', anchors: ['overview'] },
  { url: 'https://aptos.dev/en/build/guides/system-integrators-guide', anchors: ['current-balance-for-a-coin', 'transfers'] },
  { url: 'https://aptos.dev/en/build/guides/exchanges', anchors: ['fungible-asset-balances'] },
  { url: 'https://aptos.dev/en/concepts/staking', anchors: ['validators', 'rewards'] },
  { url: 'https://aptos.dev/en/concepts/accounts', anchors: ['rewards'] },
  { url: 'https://aptos.dev/en/concepts/coin-and-token/coin', anchors: ['current-balance-for-a-coin'] },
  { url: 'https://aptos.dev/en/concepts/coin-and-token/fungible-asset', anchors: ['transfer'] },
  { url: 'https://d.example/docs/guide/setup.html', anchors: ['install', 'configure'] },
  { url: 'https://d.example/docs/guide/usage.html', anchors: ['run'] },
]);

const sources: Source[] = [
  { n: 1, url: 'https://aptos.dev/en/concepts/staking#rewards', title: 'Staking › Rewards' },
  { n: 2, url: 'https://aptos.dev/en/concepts/coin-and-token/coin#current-balance-for-a-coin', title: 'Coin' },
  { n: 3, url: 'https://aptos.dev/en/build/guides/exchanges', title: 'Exchanges' },
  { n: 4, url: 'https://d.example/docs/guide/setup.html#install', title: 'Setup › Install' },
];

const run = (text: string, selected: readonly Source[] = sources) => processCitations(text, selected, index);

describe('processCitations: the failure cases of seed 001', () => {
  it('moves a child page anchor put on its parent folder to the child page that has it', async () => {
    const result = (await run('Read https://aptos.dev/en/concepts/coin-and-token/#current-balance-for-a-coin for balances.'));
    expect(result.text).toBe('Read https://aptos.dev/en/concepts/coin-and-token/coin#current-balance-for-a-coin for balances.');
    expect(result.warnings).toEqual([expect.stringContaining('Replaced https://aptos.dev/en/concepts/coin-and-token/ with https://aptos.dev/en/concepts/coin-and-token/coin')]);
  });

  it('moves an anchor on the wrong page to the one page that has it', async () => {
    expect((await run('See [balances](https://aptos.dev/en/build/guides#fungible-asset-balances).')).text).toBe(
      'See [balances](https://aptos.dev/en/build/guides/exchanges#fungible-asset-balances).',
    );
  });

  it('moves an anchor several pages have to the page the sentence cites, else to the one under the linked page', async () => {
    const link = '[balance](https://aptos.dev/en/build/guides#current-balance-for-a-coin)';
    expect((await run(`The ${link} of a coin [2].`)).text).toBe('The [balance](https://aptos.dev/en/concepts/coin-and-token/coin#current-balance-for-a-coin) of a coin [1].');
    expect((await run(`The ${link} of a coin.`)).text).toBe('The [balance](https://aptos.dev/en/build/guides/system-integrators-guide#current-balance-for-a-coin) of a coin.');
  });

  it('replaces a truncated parent URL with the page the sentence cites', async () => {
    expect((await run('Stakers earn rewards, see https://aptos.dev/en/concepts [1].')).text).toBe('Stakers earn rewards, see https://aptos.dev/en/concepts/staking [1].');
    expect((await run('Setup is in [the guide](https://d.example/docs/guide/) [4].')).text).toBe('Setup is in [the guide](https://d.example/docs/guide/setup.html) [1].');
  });

  it('replaces a truncated folder URL when its anchor narrows the pages under it to one', async () => {
    expect((await run('Start it as in [run](https://d.example/docs/guide#run).')).text).toBe('Start it as in [run](https://d.example/docs/guide/usage.html#run).');
  });

  it('unlinks a truncated parent URL when nothing says which page under it is meant', async () => {
    const result = (await run('Concepts are at [the concepts](https://aptos.dev/en/concepts) and https://aptos.dev/en/concepts too.'));
    expect(result.text).toBe('Concepts are at the concepts and too.');
    expect(result.warnings).toEqual([
      expect.stringMatching(/^Unlinked https:\/\/aptos\.dev\/en\/concepts: .*not an indexed page/),
      expect.stringMatching(/^Removed https:\/\/aptos\.dev\/en\/concepts: /),
    ]);
  });

  it('rewrites .md, .html, /index and trailing-slash paths, absolute or relative, to the stored URL', async () => {
    expect((await run('[a](https://aptos.dev/en/concepts/staking.md#validators) [b](/en/concepts/coin-and-token/coin.mdx) [c](https://aptos.dev/en/build/guides/index.html) <https://aptos.dev/en/concepts/staking/>')).text).toBe(
      '[a](https://aptos.dev/en/concepts/staking#validators) [b](https://aptos.dev/en/concepts/coin-and-token/coin) [c](https://aptos.dev/en/build/guides) <https://aptos.dev/en/concepts/staking>',
    );
  });

  it('unlinks an invented page: a Markdown link keeps its label, a bare URL goes, and a warning says why', async () => {
    const result = (await run('Use [the faucet](https://aptos.dev/en/build/faucet-page) or (https://aptos.dev/en/build/faucet-page) now.'));
    expect(result.text).toBe('Use the faucet or now.');
    expect(result.warnings).toEqual([
      'Unlinked https://aptos.dev/en/build/faucet-page: no such page in the index.',
      'Removed https://aptos.dev/en/build/faucet-page: no such page in the index.',
    ]);
  });

  it('drops an invented anchor and keeps the page link', async () => {
    const result = (await run('See [staking](https://aptos.dev/en/concepts/staking#no-such-section).'));
    expect(result.text).toBe('See [staking](https://aptos.dev/en/concepts/staking).');
    expect(result.warnings).toEqual(['Removed #no-such-section from https://aptos.dev/en/concepts/staking: no indexed page has that anchor.']);
  });

  it('unlinks an anchor several pages have when the context names none of them', async () => {
    const result = (await run('Rewards: https://aptos.dev/en/concepts/made-up#rewards and more.', []));
    expect(result.text).toBe('Rewards: and more.');
  });
});

describe('processCitations: markers', () => {
  it('renumbers markers in order of first use, in groups and side by side', async () => {
    const result = (await run('Coins [3]. Staking [1, 3]. Both [2][1].'));
    expect(result.text).toBe('Coins [1]. Staking [2, 1]. Both [3][2].');
    expect(result.citations.map((citation) => [citation.n, citation.title])).toEqual([[1, 'Exchanges'], [2, 'Staking › Rewards'], [3, 'Coin']]);
    expect(result.citations[1]).toEqual({ n: 2, url: 'https://aptos.dev/en/concepts/staking#rewards', anchor: 'rewards', title: 'Staking › Rewards' });
  });

  it('drops numbers of no source, with a warning, and the space before a marker that goes', async () => {
    const result = (await run('Coins [9]. Staking [1, 7] and more [8] here.'));
    expect(result.text).toBe('Coins. Staking [1] and more here.');
    expect(result.warnings).toEqual([expect.stringContaining('Dropped [9]'), expect.stringContaining('Dropped [7]'), expect.stringContaining('Dropped [8]')]);
    expect(result.citations).toHaveLength(1);
  });

  it('drops markers of a source that is not indexed, and an anchor its page lacks', async () => {
    const selected: Source[] = [
      { n: 1, url: 'https://aptos.dev/en/gone', title: 'Gone' },
      { n: 2, url: 'https://aptos.dev/en/concepts/staking#nope', title: 'Staking' },
    ];
    const result = (await run('A [1]. B [2].', selected));
    expect(result.text).toBe('A. B [1].');
    expect(result.citations).toEqual([{ n: 1, url: 'https://aptos.dev/en/concepts/staking', title: 'Staking' }]);
    expect(result.warnings).toHaveLength(2);
  });

  it('gives sources with the same URL one number', async () => {
    const selected: Source[] = [
      { n: 1, url: 'https://aptos.dev/en/concepts/staking#rewards', title: 'Staking' },
      { n: 2, url: 'https://aptos.dev/en/concepts/staking.md#rewards', title: 'Staking again' },
    ];
    expect((await run('A [2]. B [1]. C [1, 2].', selected)).text).toBe('A [1]. B [1]. C [1].');
  });

  it('formats the sources list the caller appends', async () => {
    const { citations } = (await run('Coins [3]. Staking [1].'));
    expect(formatSourcesList(citations)).toBe('Sources:\n[1] Exchanges — https://aptos.dev/en/build/guides/exchanges\n[2] Staking › Rewards — https://aptos.dev/en/concepts/staking#rewards');
    expect(formatSourcesList([])).toBe('');
  });
});

describe('processCitations: code', () => {
  it('leaves fenced blocks and inline code alone', async () => {
    const text = 'Run `curl https://aptos.dev/x [9]` first [1].\n\n```bash\ncurl https://aptos.dev/en/nothing [7]\n```\n~~~\n[link](https://bad.example)\n~~~\nDone [9].';
    const result = (await run(text));
    expect(result.text).toBe('Run `curl https://aptos.dev/x [9]` first [1].\n\n```bash\ncurl https://aptos.dev/en/nothing [7]\n```\n~~~\n[link](https://bad.example)\n~~~\nDone.');
    expect(result.warnings).toEqual([expect.stringContaining('Dropped [9]')]);
  });

  it('keeps an unclosed fence as code to the end', async () => {
    expect((await run('Text [1].\n```\nhttps://bad.example [3]')).text).toBe('Text [1].\n```\nhttps://bad.example [3]');
  });
});

describe('processCitations: properties', () => {
  const good = ['https://aptos.dev/en/concepts/staking#rewards', 'https://aptos.dev/en/build/guides', 'https://d.example/docs/guide/setup.html#install'];
  const broken = [
    'https://aptos.dev/en/build/guides#current-balance-for-a-coin', 'https://aptos.dev/en/concepts/coin-and-token/#current-balance-for-a-coin',
    'https://aptos.dev/en/concepts', 'https://aptos.dev/en/concepts/staking.md#validators', 'https://aptos.dev/en/build/invented',
    'https://aptos.dev/en/concepts/staking#invented', 'https://d.example/docs/guide/', 'https://d.example/docs/guide#run',
    '/en/concepts/staking.md', '#rewards', '', 'mailto:someone@example.com', 'https://aptos.dev/', 'HTTPS://APTOS.DEV/en/concepts/staking',
  ];
  const url = fc.oneof(fc.constantFrom(...good, ...broken), fc.webUrl({ withFragments: true, withQueryParameters: true }));
  const words = fc.constantFrom('Staking', 'pays', ' ', ' ', '\n', '. ', '.', ',', '(', ')', '[', ']', '<', '>', '!', '"', '|', 'http', 's://', 'https:', '//', 'h', '#', ':', '\n\n', 'e.g. ');
  const fragment = fc.oneof(
    words,
    url,
    url.map((link) => `[label](${link})`),
    url.map((link) => `[${link}](${link})`),
    url.map((link) => `![alt](${link} "title")`),
    url.map((link) => `<${link}>`),
    url.map((link) => `(${link})`),
    fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 3 }).map((numbers) => `[${numbers.join(', ')}]`),
    url.map((link) => `\`${link} [9]\``),
    url.map((link) => `\n\`\`\`\n${link} [9]\n\`\`\`\n`),
    url.map((link) => `\n~~~\n${link} [9]\n~~~\n`),
    fc.string({ maxLength: 6 }).map((text) => text.replace(/[`~]/g, '')),
  );
  const answer = fc.array(fragment, { maxLength: 25 }).map((parts) => parts.join(''));

  it('leaves no http(s) URL outside code that does not resolve to a stored page with that anchor', async () => {
    await fc.assert(
      fc.asyncProperty(answer, async (text) => {
        const result = (await run(text));
        for (const found of urlsOutsideCode(result.text)) {
          const hashAt = found.indexOf('#');
          const page = hashAt === -1 ? found : found.slice(0, hashAt);
          expect(await index.resolvePage(page), found).toBe(page);
          if (hashAt !== -1) expect((await index.anchorsOf(page)).has(decodeURIComponent(found.slice(hashAt + 1))), found).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('passes every code span and fenced block through unchanged', async () => {
    const code = fc.oneof(url.map((link) => `\`${link} [9]\``), url.map((link) => `\n\`\`\`\n${link} [9]\n\`\`\`\n`));
    await fc.assert(
      fc.asyncProperty(answer, code, answer, async (before, block, after) => {
        expect((await run(`${before}\n\n${block}\n\n${after}`)).text).toContain(block.trim());
      }),
      { numRuns: 200 },
    );
  });

  it('never throws, and is deterministic, on arbitrary text', async () => {
    const odd = fc.array(fc.oneof(fc.string(), fc.constantFrom('`', '```', '~~~', '\n', '[', '](', ')', 'https://', '<', '>', '[1]', '\\')), { maxLength: 30 });
    await fc.assert(
      fc.asyncProperty(odd, async (parts) => {
        const text = parts.join('');
        expect((await run(text))).toEqual((await run(text)));
      }),
      { numRuns: 300 },
    );
  });
});

/** http(s) URLs of the text outside code: generous bounds, so a URL glued to other text fails. */
function urlsOutsideCode(text: string): string[] {
  const prose: string[] = [];
  let fence: string | undefined;
  let current = '';
  for (const line of text.split('\n')) {
    const marker = /^(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined && marker !== undefined) {
      prose.push(current);
      current = '';
      fence = marker;
    } else if (fence !== undefined) {
      if (line.trim() === fence) fence = undefined;
    } else {
      current += `${line}\n`;
    }
  }
  prose.push(current);
  return prose
    .flatMap((part) => part.split(/`[^`\n]*`/))
    .flatMap((part) => [...part.matchAll(/https?:\/\/[^\s<>()[\]{}"'`|]*/gi)].map((match) => match[0].replace(/[.,:;!?*_~]+$/, '')));
}
