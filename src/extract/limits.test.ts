import { describe, expect, it } from 'vitest';
import { extractHtml } from './extract-html.js';
import { MAX_WORD_CHARS } from './limits.js';

describe('extraction limits on hostile pages', () => {
  it('extracts a page of 100,000 nested <div>s without overflowing the stack, keeping its text and saying what it flattened', () => {
    const depth = 100_000;
    const html = `<html><body><main><h1 id="deep">Deep</h1><p>Before the nest.</p>${'<div>'.repeat(depth)}innermost words${'</div>'.repeat(depth)}<p>After the nest.</p></main></body></html>`;
    const page = extractHtml(html, 'https://d.example/deep.html');
    expect(page.headings).toEqual([{ level: 1, text: 'Deep', anchor: 'deep' }]);
    expect(page.markdown).toContain('Before the nest.');
    expect(page.markdown).toContain('innermost words');
    expect(page.markdown).toContain('After the nest.');
    expect(page.warnings.map((warning) => warning.message).join(' ')).toMatch(/nested deeper than \d+ levels/);
    expect(page.warnings.map((warning) => warning.code)).toContain('extract.nesting-flattened');
  });

  it('cuts a 5 MB single word to a bounded length with a warning, and keeps the rest of the page', () => {
    const html = `<html><body><main><h1 id="blob">Blob</h1><p>${'a'.repeat(5_000_000)}</p><p>Real text after it.</p></main></body></html>`;
    const page = extractHtml(html, 'https://d.example/blob.html');
    expect(page.markdown).toContain('Real text after it.');
    expect(Math.max(...page.markdown.split(/\s+/).map((word) => word.length))).toBeLessThanOrEqual(MAX_WORD_CHARS + 1);
    expect(page.warnings.map((warning) => warning.message).join(' ')).toMatch(/longer than 2000 characters was cut/);
    expect(page.warnings.map((warning) => warning.code)).toEqual(['extract.word-cut']);
  });

  it('says nothing on an ordinary page', () => {
    expect(extractHtml('<html><body><main><h1>Fine</h1><p>Words.</p></main></body></html>', 'https://d.example/').warnings).toEqual([]);
  });
});
