import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadTokenizer } from '../tokenize/tokenizer.js';
import { chunkPage } from './chunker.js';

const tokenizer = await loadTokenizer('o200k_base');
const page = (markdown: string, headings: { level: number; text: string; anchor?: string; continues?: true }[] = []) => ({ url: 'https://d.example/p.html', title: 'Page', markdown, headings });

describe('chunkPage', () => {
  it('gives each chunk the anchor of its nearest anchored heading and its heading path', () => {
    const markdown = '# Guide\n\nIntro.\n\n## Install\n\nSteps.\n\n### Notes\n\nNo id here.\n\n## Configure\n\nSettings.';
    const chunks = chunkPage(page(markdown, [
      { level: 1, text: 'Guide', anchor: 'guide' },
      { level: 2, text: 'Install', anchor: 'install' },
      { level: 3, text: 'Notes' },
      { level: 2, text: 'Configure', anchor: 'configure' },
    ]), { maxTokens: 200, tokenizer });
    expect(chunks.map((chunk) => [chunk.anchor, chunk.headingPath])).toEqual([
      ['guide', ['Guide']],
      ['install', ['Guide', 'Install']],
      ['configure', ['Guide', 'Configure']],
    ]);
    // "Notes" has no id: it links to Install's anchor anyway, so it is one passage with Install.
    expect(chunks[1]?.text).toBe('## Install\n\nSteps.\n\n### Notes\n\nNo id here.');
    expect(chunks.every((chunk) => chunk.pageUrl === 'https://d.example/p.html')).toBe(true);
  });

  it('cites the text under a repeated heading (a section resuming after its entries) at the anchor the repeat lists, not the entry before it', () => {
    const markdown = '## Files\n\nIntro.\n\n### os.open(path)\n\nOpen the file.\n\n## Files\n\nThe following constants are flags.';
    const chunks = chunkPage(page(markdown, [
      { level: 2, text: 'Files', anchor: 'files' },
      { level: 3, text: 'os.open(path)', anchor: 'os.open' },
      { level: 2, text: 'Files', anchor: 'files', continues: true },
    ]), { maxTokens: 200, tokenizer });
    expect(chunks.map((chunk) => [chunk.anchor, chunk.headingPath])).toEqual([
      ['files', ['Files']],
      ['os.open', ['Files', 'os.open(path)']],
      ['files', ['Files']],
    ]);
    expect(chunks[1]?.text).not.toContain('constants');
    expect(chunks[2]?.text).toBe('## Files\n\nThe following constants are flags.');
  });

  it('has no anchor for text before the first anchored heading', () => {
    const chunks = chunkPage(page('Preamble text.\n\n## Later\n\nBody.', [{ level: 2, text: 'Later', anchor: 'later' }]), { maxTokens: 200, tokenizer });
    expect(chunks[0]?.anchor).toBeUndefined();
    expect(chunks[0]?.headingPath).toEqual([]);
    expect(chunks[1]?.anchor).toBe('later');
  });

  it('matches headings by text, so a heading the converter dropped does not shift the anchors', () => {
    const chunks = chunkPage(page('## B\n\nb\n\n## C\n\nc', [
      { level: 2, text: 'A (dropped)', anchor: 'a' },
      { level: 2, text: 'B', anchor: 'b' },
      { level: 2, text: 'C', anchor: 'c' },
    ]), { maxTokens: 100, tokenizer });
    expect(chunks.map((chunk) => chunk.anchor)).toEqual(['b', 'c']);
  });

  it('repeats the heading on every chunk of a split section and counts tokens honestly', () => {
    const sentences = Array.from({ length: 60 }, (_, index) => `Sentence number ${index} explains one more detail of the option.`).join(' ');
    const chunks = chunkPage(page(`## Options\n\n${sentences}`, [{ level: 2, text: 'Options', anchor: 'options' }]), { maxTokens: 120, tokenizer });
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) {
      expect(chunk.text.startsWith('## Options\n\n')).toBe(true);
      expect(chunk.tokenCount).toBe(tokenizer.count(chunk.text));
      expect(chunk.tokenCount).toBeLessThanOrEqual(120);
    }
  });

  it('splits a table over the budget between rows, repeating its header row in each part', () => {
    const rows = Array.from({ length: 60 }, (_, index) => `| option_${index} | The value of option ${index}, in seconds |`).join('\n');
    const table = `| Name | Meaning |\n| --- | --- |\n${rows}`;
    const chunks = chunkPage(page(`## Options\n\n${table}`), { maxTokens: 120, tokenizer });
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) {
      expect(chunk.text.startsWith('## Options\n\n| Name | Meaning |\n| --- | --- |\n| option_')).toBe(true);
      expect(chunk.tokenCount).toBeLessThanOrEqual(120);
    }
    const allRows = chunks.flatMap((chunk) => chunk.text.split('\n').filter((line) => line.startsWith('| option_')));
    expect(allRows).toEqual(rows.split('\n'));
  });

  it('splits a list item over the budget between its nested items (a table of contents), never inside a line', () => {
    const nested = Array.from({ length: 80 }, (_, index) => `    - [Chapter ${index}: a long chapter title](https://d.example/c${index}.html)`).join('\n');
    const markdown = `# Contents\n\n- [The Library](https://d.example/library/)\n${nested}\n- [Tutorial](https://d.example/tutorial/)`;
    const chunks = chunkPage(page(markdown), { maxTokens: 150, tokenizer });
    expect(chunks.length).toBeGreaterThan(4);
    for (const chunk of chunks) expect(chunk.tokenCount).toBeLessThanOrEqual(150);
    const lines = chunks.flatMap((chunk) => chunk.text.split('\n')).filter((line) => line.includes('](https://d.example/c'));
    expect(lines).toEqual(nested.split('\n'));
  });

  it('keeps a code example over the budget, up to four budgets, whole, with the short lead-in that introduces it', () => {
    const code = '```sql\n' + Array.from({ length: 30 }, (_, index) => `SELECT ${index} FROM table_${index};`).join('\n') + '\n```';
    expect(tokenizer.count(code)).toBeGreaterThan(200);
    const chunks = chunkPage(page(`## Example\n\nFor example:\n\n${code}\n\nAfter the code.`), { maxTokens: 100, tokenizer });
    const withCode = chunks.filter((chunk) => chunk.text.includes('```sql'));
    expect(withCode).toHaveLength(1);
    expect(withCode[0]?.text).toContain(`For example:\n\n${code}`);
  });

  it('splits a code listing longer than four budgets into fenced parts within the budget, at blank lines where it can, every line once and in order', () => {
    const functions = Array.from({ length: 40 }, (_, index) => `def handler_${index}(request):\n    value = compute_${index}(request)\n    return value`);
    const code = '```python\n' + functions.join('\n\n') + '\n```';
    const chunks = chunkPage(page(`## Source\n\n${code}`), { maxTokens: 100, tokenizer });
    expect(chunks.length).toBeGreaterThan(4);
    for (const chunk of chunks) {
      expect(chunk.tokenCount).toBeLessThanOrEqual(100);
      expect(chunk.text).toMatch(/^## Source\n\n```python\n[\s\S]*\n```$/);
      // Cut at blank lines: no function is split across parts.
      expect(chunk.text.match(/^def /gm)?.length).toBe(chunk.text.match(/^ {4}return value$/gm)?.length);
    }
    const bodyLines = chunks.flatMap((chunk) => chunk.text.split('\n').filter((line) => line !== '## Source' && !line.startsWith('```') && line !== ''));
    expect(bodyLines).toEqual(functions.join('\n').split('\n'));
  });

  it('splits a list item that holds a long code block (a list item left open over the rest of the page) into parts within the budget, its fences closed and opened again', () => {
    const quoted = Array.from({ length: 60 }, (_, index) => `    > #define CONSTANT_${index} ${index}`).join('\n');
    const item = `-   Used by one module only.\n\n    ## A heading the list swallowed\n\n    > \`\`\`\n${quoted}\n    > \`\`\`\n\n    These macros define the allowed values.`;
    const chunks = chunkPage(page(`## Opcodes\n\n${item}`), { maxTokens: 100, tokenizer });
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) {
      expect(chunk.tokenCount).toBeLessThanOrEqual(100);
      expect((chunk.text.match(/^ {4}> ```$/gm) ?? []).length % 2).toBe(0);
    }
    const defines = chunks.flatMap((chunk) => chunk.text.split('\n').filter((line) => line.includes('#define')));
    expect(defines).toEqual(quoted.split('\n'));
  });

  it('keeps a line longer than the budget whole when it splits a listing', () => {
    const long = `x = [${Array.from({ length: 200 }, (_, index) => index).join(', ')}]`;
    const code = '```python\n' + [...Array.from({ length: 30 }, (_, index) => `y_${index} = ${index}`), long, 'z = 1'].join('\n') + '\n```';
    const chunks = chunkPage(page(`## Data\n\n${code}`), { maxTokens: 60, tokenizer });
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.some((chunk) => chunk.text.includes(long))).toBe(true);
    expect(chunks.at(-1)?.text).toContain('z = 1');
  });

  it('splits a long listing into parts that keep every line once and in order, balance their fences, hold code, and stay within the budget (property)', () => {
    const line = fc.oneof(fc.constant(''), fc.lorem({ maxCount: 12 }).map((words) => words.replace(/ /g, '_ ')));
    const listing = fc.record({
      lines: fc.array(line, { minLength: 40, maxLength: 160 }),
      fence: fc.constantFrom('```', '~~~', '````'),
      info: fc.constantFrom('', 'python', 'c {.x}'),
      prefix: fc.constantFrom('', '-   ', '> '),
    });
    fc.assert(
      fc.property(listing, fc.integer({ min: 40, max: 120 }), ({ lines, fence, info, prefix }, maxTokens) => {
        const indent = prefix === '-   ' ? '    ' : prefix;
        const body = lines.map((text) => (text === '' && prefix !== '> ' ? '' : `${indent}${text}`));
        const markdown = `## Code\n\n${prefix}${fence}${info}\n${body.join('\n')}\n${indent}${fence}\n\nAfter.`;
        const chunks = chunkPage(page(markdown), { maxTokens, tokenizer });
        const fenceLine = new RegExp(`^(?:[-> ]*)${fence}`);
        const kept = chunks.flatMap((chunk) => chunk.text.split('\n').filter((text) => text.trim() !== '' && text.trim() !== '>' && text !== '## Code' && text !== 'After.' && !fenceLine.test(text)));
        expect(kept).toEqual(body.filter((text) => text.trim() !== '' && text.trim() !== '>'));
        for (const chunk of chunks) {
          const fences = chunk.text.split('\n').filter((text) => fenceLine.test(text)).length;
          expect(fences % 2).toBe(0);
          if (fences > 0) expect(chunk.text.split('\n').some((text) => text.trim() !== '' && text.trim() !== '>' && !fenceLine.test(text) && text !== '## Code')).toBe(true);
        }
        // A block of up to four budgets stays whole; a longer one splits into parts within the budget
        // (give or take the token or two that joining a part to its heading can add at the seam).
        const block = markdown.slice(markdown.indexOf(prefix + fence), markdown.lastIndexOf('\n\nAfter.'));
        // A single line is never cut: a part of one line may be over the budget with its fences.
        const textLines = (text: string) => text.split('\n').filter((line) => !/^[\s>]*$/.test(line) && !fenceLine.test(line) && line !== '## Code' && line !== 'After.').length;
        if (tokenizer.count(block) > 4 * maxTokens) for (const chunk of chunks) if (textLines(chunk.text) > 1) expect(chunk.tokenCount).toBeLessThanOrEqual(maxTokens + 2);
      }),
      { numRuns: 150 },
    );
  });

  const block = fc.oneof(
    fc.lorem({ maxCount: 40, mode: 'sentences' }),
    fc.array(fc.lorem({ maxCount: 6 }), { minLength: 1, maxLength: 8 }).map((lines) => '```js\n' + lines.join('\n') + '\n```'),
    fc.array(fc.lorem({ maxCount: 8 }), { minLength: 1, maxLength: 6 }).map((items) => items.map((item) => `- ${item}`).join('\n')),
    fc.array(fc.tuple(fc.lorem({ maxCount: 2 }), fc.lorem({ maxCount: 3 })), { minLength: 1, maxLength: 5 }).map(
      (rows) => '| a | b |\n| --- | --- |\n' + rows.map(([a, b]) => `| ${a} | ${b} |`).join('\n'),
    ),
    fc.tuple(fc.integer({ min: 1, max: 4 }), fc.lorem({ maxCount: 3 })).map(([level, text]) => `${'#'.repeat(level)} ${text}`),
  );
  const document = fc.array(block, { minLength: 1, maxLength: 25 }).map((blocks) => blocks.join('\n\n'));
  const squash = (text: string) => text.replace(/\s+/g, '');

  it('loses no text and duplicates none: the chunk texts, in order and without heading lines, are the page without them (property)', () => {
    fc.assert(
      fc.property(document, fc.integer({ min: 40, max: 400 }), (markdown, maxTokens) => {
        const chunks = chunkPage(page(markdown), { maxTokens, tokenizer });
        // Heading lines, and the header rows a split table repeats in each part, are left out of the comparison.
        const repeated = /^#{1,6} .*$|^\| a \| b \|$|^\| --- \| --- \|$/gm;
        const bodies = chunks.map((chunk) => chunk.text.replace(repeated, '')).join('');
        const withoutHeadings = markdown.replace(repeated, '');
        // Split prose is rejoined with single spaces and list items with newlines: compare without whitespace.
        expect(squash(bodies)).toBe(squash(withoutHeadings));
        for (const chunk of chunks) expect(chunk.tokenCount).toBe(tokenizer.count(chunk.text));
      }),
      { numRuns: 200 },
    );
  });

  it('stays within the budget unless a chunk holds an indivisible block, and is deterministic (property)', () => {
    fc.assert(
      fc.property(document, fc.integer({ min: 40, max: 400 }), (markdown, maxTokens) => {
        const chunks = chunkPage(page(markdown), { maxTokens, tokenizer });
        for (const chunk of chunks) {
          if (chunk.tokenCount > maxTokens) expect(chunk.text, `${chunk.tokenCount} > ${maxTokens}`).toMatch(/```|\|.*\||^- /m);
        }
        expect(chunkPage(page(markdown), { maxTokens, tokenizer })).toEqual(chunks);
      }),
      { numRuns: 400 },
    );
  });

  it('repeats whole sentences of the previous chunk when overlap is asked, within the budget', () => {
    const sentences = Array.from({ length: 30 }, (_, index) => `Sentence ${index} is about topic ${index}.`).join(' ');
    const chunks = chunkPage(page(`## Topics\n\n${sentences}`), { maxTokens: 60, overlapTokens: 12, tokenizer });
    expect(chunks.length).toBeGreaterThan(3);
    for (let index = 1; index < chunks.length; index += 1) {
      const previousLast = /Sentence \d+ is about topic \d+\.$/.exec(chunks[index - 1]?.text ?? '')?.[0];
      expect(chunks[index]?.text).toContain(`## Topics\n\n${previousLast}`);
      expect(chunks[index]?.tokenCount).toBeLessThanOrEqual(60);
    }
  });

  it('never splits a fenced code block or a table row (property)', () => {
    fc.assert(
      fc.property(document, fc.integer({ min: 40, max: 400 }), (markdown, maxTokens) => {
        const chunks = chunkPage(page(markdown), { maxTokens, tokenizer });
        const fences = markdown.match(/```js\n[\s\S]*?\n```/g) ?? [];
        for (const fence of fences) expect(chunks.some((chunk) => chunk.text.includes(fence))).toBe(true);
        for (const chunk of chunks) expect((chunk.text.match(/^```/gm) ?? []).length % 2).toBe(0);
        // Tables split only between rows: every row is whole in some chunk, under the header.
        const tableRows = markdown.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| a | b |') && !line.startsWith('| --- |'));
        for (const row of tableRows) expect(chunks.some((chunk) => chunk.text.split('\n').includes(row))).toBe(true);
      }),
      { numRuns: 400 },
    );
  });
});
