import fc from 'fast-check';
import { expect, it } from 'vitest';
import { createMemoryLinkIndex } from './link-index.js';
import { processCitations, type Source } from './process.js';
import { createCitationStream } from './stream.js';

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
const good = ['https://aptos.dev/en/concepts/staking#rewards', 'https://aptos.dev/en/build/guides', 'https://d.example/docs/guide/setup.html#install'];
const broken = [
  'https://aptos.dev/en/build/guides#current-balance-for-a-coin', 'https://aptos.dev/en/concepts/coin-and-token/#current-balance-for-a-coin',
  'https://aptos.dev/en/concepts', 'https://aptos.dev/en/concepts/staking.md#validators', 'https://aptos.dev/en/build/invented',
  'https://aptos.dev/en/concepts/staking#invented', 'https://d.example/docs/guide/', 'https://d.example/docs/guide#run',
  '/en/concepts/staking.md', '#rewards', '', 'mailto:someone@example.com', 'https://aptos.dev/', 'HTTPS://APTOS.DEV/en/concepts/staking', 'https://aptos.dev/en/concepts/made#rewards',
];
const url = fc.oneof(fc.constantFrom(...good, ...broken), fc.webUrl({ withFragments: true, withQueryParameters: true }));
const words = fc.constantFrom('Staking', 'pays', ' ', ' ', '\n', '. ', '.', ',', '(', ')', '[', ']', '<', '>', '!', '"', '|', 'http', 's://', 'https:', '//', 'h', '#', ':', '\n\n', 'e.g. ', '`', '``', '```', '~~~', '\r\n', '  ```js\n');
const fragment = fc.oneof(
  words, url,
  url.map((link) => `[label](${link})`), url.map((link) => `[${link}](${link})`), url.map((link) => `![alt](${link} "title")`),
  url.map((link) => `<${link}>`), url.map((link) => `(${link})`),
  fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 3 }).map((numbers) => `[${numbers.join(', ')}]`),
  url.map((link) => `\`${link} [9]\``), url.map((link) => `\n\`\`\`\n${link} [9]\n\`\`\`\n`), url.map((link) => `\n~~~\n${link} [9]\n~~~\n`),
  fc.string({ maxLength: 6 }),
);
it('stress', () => {
  fc.assert(fc.property(fc.array(fragment, { maxLength: 25 }), fc.array(fc.nat(), { maxLength: 40 }), fc.boolean(), (parts, cuts, every) => {
    const text = parts.join('');
    const positions = every ? [...text].map((_, i) => i) : [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
    const stream = createCitationStream(sources, index);
    let out = ''; let from = 0;
    for (const p of positions) { out += stream.push(text.slice(from, p)); from = p; }
    out += stream.push(text.slice(from));
    const end = stream.end();
    expect({ ...end, text: out + end.text }).toEqual(processCitations(text, sources, index));
  }), { numRuns: Number(process.env.RUNS ?? 1000) });
}, 3_600_000);
