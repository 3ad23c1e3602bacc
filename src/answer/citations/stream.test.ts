import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemoryLinkIndex } from './link-index.js';
import { processCitations, type Source } from './process.js';
import { createCitationStream } from './stream.js';

const index = createMemoryLinkIndex([
  { url: 'https://aptos.dev/en/build/guides', anchors: ['overview'] },
  { url: 'https://aptos.dev/en/build/guides/system-integrators-guide', anchors: ['current-balance-for-a-coin'] },
  { url: 'https://aptos.dev/en/build/guides/exchanges', anchors: ['fungible-asset-balances'] },
  { url: 'https://aptos.dev/en/concepts/staking', anchors: ['validators', 'rewards'] },
  { url: 'https://aptos.dev/en/concepts/accounts', anchors: ['rewards'] },
  { url: 'https://aptos.dev/en/concepts/coin-and-token/coin', anchors: ['current-balance-for-a-coin'] },
]);

const sources: Source[] = [
  { n: 1, url: 'https://aptos.dev/en/concepts/staking#rewards', title: 'Staking' },
  { n: 2, url: 'https://aptos.dev/en/concepts/coin-and-token/coin#current-balance-for-a-coin', title: 'Coin' },
  { n: 3, url: 'https://aptos.dev/en/build/guides/exchanges', title: 'Exchanges' },
];

const answers = [
  'Staking pays [rewards](https://aptos.dev/en/concepts#rewards) to validators [1].\nSee https://aptos.dev/en/concepts/coin-and-token/#current-balance-for-a-coin for the balance [2][7].',
  'Balances: [here](https://aptos.dev/en/build/guides#fungible-asset-balances), and [coin](https://aptos.dev/en/build/guides#current-balance-for-a-coin) [3, 2]. Read [the md](/en/concepts/staking.md#validators) or https://aptos.dev/en/build/made-up. Also <https://aptos.dev/en/concepts/staking#nope>.',
  'Use `curl https://bad.example/x [9]` like this:\n\n```bash\ncurl https://aptos.dev/en/nothing [9]\n```\n\n~~~\nhttps://bad.example\n~~~\nThen https://aptos.dev/en/concepts (https://aptos.dev/en/invented) [1]. Done.[2] Really! [3]\n- item https://aptos.dev/en/concepts/staking.md\n- item [9]',
  'https://aptos.dev/en/concepts/staking[9]foo and http[9]s://bad.example and [http](x)s://bad.example ``code `x` here`` ![alt https://bad.example](https://aptos.dev/en/concepts/staking "t")',
];

async function streamed(text: string, cuts: readonly number[]): Promise<{ text: string; citations: unknown; warnings: string[] }> {
  const stream = createCitationStream(sources, index);
  const positions = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  let out = '';
  let from = 0;
  for (const position of positions) {
    out += await stream.push(text.slice(from, position));
    from = position;
  }
  out += await stream.push(text.slice(from));
  const end = await stream.end();
  return { ...end, text: out + end.text };
}

describe('createCitationStream', () => {
  it('emits, over any split of the answer, exactly the text processCitations gives for the whole', async () => {
    const cuts = fc.array(fc.nat(), { maxLength: 40 });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...answers), cuts, async (text, positions) => {
        expect(await streamed(text, positions)).toEqual(await processCitations(text, sources, index));
      }),
      { numRuns: 400 },
    );
  });

  it('gives the same final text as the batch on generated answers split anywhere, one character at a time included', async () => {
    const url = fc.constantFrom(
      'https://aptos.dev/en/concepts/staking#rewards', 'https://aptos.dev/en/concepts', 'https://aptos.dev/en/build/guides#current-balance-for-a-coin',
      'https://aptos.dev/en/concepts/coin-and-token/', 'https://bad.example/x', '/en/concepts/staking.md', 'https://aptos.dev/en/concepts/staking.md.',
    );
    const part = fc.oneof(
      fc.constantFrom(' ', '. ', '\n', '\n\n', 'word', '[', ']', '(', ')', '`', '``', '```', '~~~', '<', '!', 'http', 's://', '[1]', '[2, 9]', '[3][1]', '[x]', '\r\n'),
      url,
      url.map((link) => `[label](${link})`),
      url.map((link) => `<${link}>`),
      fc.string({ maxLength: 4 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(part, { maxLength: 30 }), fc.array(fc.nat(), { maxLength: 30 }), fc.boolean(), async (parts, positions, everyCharacter) => {
        const text = parts.join('');
        const cuts = everyCharacter ? [...text].map((_, position) => position) : positions;
        expect(await streamed(text, cuts)).toEqual(await processCitations(text, sources, index));
      }),
      { numRuns: 500 },
    );
  });

  it('holds back an unfinished link, and emits it corrected once it is complete', async () => {
    const stream = createCitationStream(sources, index);
    expect(await stream.push('See [the md](/en/concepts/sta')).toBe('See');
    expect(await stream.push('king.md) for more')).toBe(' [the md](https://aptos.dev/en/concepts/staking) for');
    expect((await stream.end()).text).toBe(' more');
  });

  it('holds back an unfinished marker and a bare URL that may still go on', async () => {
    const stream = createCitationStream(sources, index);
    expect(await stream.push('Coins [3')).toBe('Coins');
    expect(await stream.push('] pay https://aptos.dev/en/concepts/stak')).toBe(' [1] pay');
    expect(await stream.push('ing now')).toBe(' https://aptos.dev/en/concepts/staking');
  });

  it('waits for the end of a sentence when its markers decide where a link goes', async () => {
    const stream = createCitationStream(sources, index);
    expect(await stream.push('Rewards: see https://aptos.dev/en/concepts for')).toBe('Rewards: see');
    expect(await stream.push(' details [1]. Next')).toBe(' https://aptos.dev/en/concepts/staking for details [1].');
  });

  it('passes code inside a fence through as it arrives, once the opening line is complete', async () => {
    const stream = createCitationStream(sources, index);
    expect(await stream.push('Intro.\n``')).toBe('Intro.');
    expect(await stream.push('`js\ncurl https://bad.example [9')).toBe('\n```js\ncurl https://bad.example [9');
    expect(await stream.push(']\n```\nAfter [9].')).toBe(']\n```\nAfter');
    expect((await stream.end())).toMatchObject({ text: '.', warnings: [expect.stringContaining('Dropped [9]')] });
  });

  it('previews a very long unfinished sentence less often, and still ends with the batch text', async () => {
    const text = 'word https://aptos.dev/en/concepts/staking.md [3] and [x](https://aptos.dev/en/invented) [9] '.repeat(60);
    const stream = createCitationStream(sources, index);
    const pieces: string[] = [];
    for (let at = 0; at < text.length; at += 3) pieces.push(await stream.push(text.slice(at, at + 3)));
    const end = await stream.end();
    expect(pieces.join('') + end.text).toBe((await processCitations(text, sources, index)).text);
    expect(pieces.filter((piece) => piece !== '').length).toBeGreaterThan(10);
  });

  it('refuses text after end', async () => {
    const stream = createCitationStream(sources, index);
    await stream.end();
    await expect(stream.push('more')).rejects.toThrow(/ended/);
  });
});
