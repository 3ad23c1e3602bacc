// Tokenizer cost on hostile input (issue 25: it must be linear in the input size):
//   npm run bench:tokenize -- [--runs 5]
// Times tokenizer.count and the chunker on a 200 KB single word and on other long runs of one
// character class, next to 200 KB of ordinary prose. Prints milliseconds (median of the runs)
// and ms per 100 KB, which stays flat when the cost is linear.
import { parseArgs } from 'node:util';
import { chunkPage } from '../src/chunk/chunker.js';
import { loadTokenizer } from '../src/tokenize/tokenizer.js';

const { values } = parseArgs({ options: { runs: { type: 'string' } } });
const runs = Number(values.runs ?? 5);
const SIZE = 200_000;
const prose = 'Create the index concurrently, so that writes to the table are not blocked while it builds. ';
const inputs: Record<string, string> = {
  'ordinary prose': prose.repeat(Math.ceil(SIZE / prose.length)).slice(0, SIZE),
  'single word of letters': 'a'.repeat(SIZE),
  'single word, half the size': 'a'.repeat(SIZE / 2),
  'CJK without punctuation': '漢'.repeat(SIZE / 3), // 200 KB in UTF-8
  'run of symbols': '='.repeat(SIZE),
  'run of spaces': `x${' '.repeat(SIZE)}y`,
};

const tokenizer = await loadTokenizer('o200k_base');
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const time = (action: () => unknown) => {
  const samples: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    action();
    samples.push(performance.now() - started);
  }
  return median(samples);
};

console.log(`tokenizer o200k_base, median of ${runs} runs`);
console.log('input                          chars     tokens   count ms  ms/100KB  chunkPage ms');
for (const [name, text] of Object.entries(inputs)) {
  const count = tokenizer.count(text);
  const countMs = time(() => tokenizer.count(text));
  const chunkMs = time(() => chunkPage({ url: 'http://127.0.0.1/page', title: 'Page', markdown: `# Page\n\n${text}\n`, headings: [{ level: 1, text: 'Page' }] }, { maxTokens: 400, tokenizer }));
  const bytes = Buffer.byteLength(text);
  console.log(
    `${name.padEnd(30)} ${String(text.length).padStart(7)} ${String(count).padStart(10)} ${countMs.toFixed(1).padStart(10)} ${((countMs / bytes) * 100_000).toFixed(1).padStart(9)} ${chunkMs.toFixed(1).padStart(13)}`,
  );
}
