import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { binaryContentReason, decodeDocument } from './decode.js';

describe('decodeDocument', () => {
  it('follows a byte-order mark over what the header says', () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<p>Café</p>', 'utf16le')]);
    expect(decodeDocument(utf16, { contentType: 'text/html; charset=utf-8', html: true })).toBe('<p>Café</p>');
    const utf8 = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<p>Café</p>')]);
    expect(decodeDocument(utf8, { contentType: 'text/html; charset=iso-8859-1', html: true })).toBe('<p>Café</p>');
  });

  it('uses the header charset, then <meta charset> in HTML, then UTF-8', () => {
    const latin1 = Buffer.from('<meta charset="iso-8859-1"><p>Café crème</p>', 'latin1');
    expect(decodeDocument(latin1, { html: true })).toContain('Café crème');
    expect(decodeDocument(Buffer.from('Caf\u00e9', 'latin1'), { contentType: 'text/plain; charset=windows-1252', html: false })).toBe('Café');
    expect(decodeDocument(Buffer.from('Café'), { html: false })).toBe('Café');
  });

  it('ignores a charset label it does not know', () => {
    expect(decodeDocument(Buffer.from('Café'), { contentType: 'text/html; charset=x-made-up', html: true })).toBe('Café');
  });
});

describe('decodeDocument without a declared charset', () => {
  const french = '<p>Les élèves étudient à l’école, où ils apprennent le français. Déjà très tôt, ils lisent.</p>';

  it('reads a Latin-1 page served with no charset as Latin-1, not mojibake', () => {
    expect(decodeDocument(iconv.encode(french.replace('’', "'"), 'latin1'), { contentType: 'text/html', html: true })).toBe(french.replace('’', "'"));
  });

  it('reads windows-1252 punctuation and Cyrillic windows-1251 by detection', () => {
    const quoted = '<p>“Quoted” — dash… naïve café résumé, déjà vu</p>';
    expect(decodeDocument(iconv.encode(quoted, 'windows-1252'), { html: true })).toBe(quoted);
    const russian = '<p>Создание индекса без блокировки записи в таблицу</p>';
    expect(decodeDocument(iconv.encode(russian, 'windows-1251'), { html: true })).toBe(russian);
  });

  it('keeps valid UTF-8 as UTF-8', () => {
    expect(decodeDocument(Buffer.from(french), { html: true })).toBe(french);
  });
});

describe('binaryContentReason', () => {
  it('calls random bytes, an image and a NUL-laden file binary, saying why', () => {
    let seed = 7;
    const random = Buffer.from(Array.from({ length: 4096 }, () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 256));
    expect(binaryContentReason(random)).toMatch(/binary data, not text/);
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
    expect(binaryContentReason(png)).toMatch(/NUL bytes/);
    const noNul = Buffer.from(Array.from({ length: 1000 }, (_, index) => (index % 5 === 0 ? 0x01 : 0x61)));
    expect(binaryContentReason(noNul)).toMatch(/20% of its first bytes are control characters/);
  });

  it('calls an HTML page with a stray NUL text, and a NUL-laden file that merely starts with "<" binary', () => {
    const page = Buffer.concat([Buffer.from('<!DOCTYPE HTML>\n<html><body><p>The NUL character <code>'), Buffer.from([0]), Buffer.from(`</code>.</p>${'<p>text</p>'.repeat(50)}</body></html>`)]);
    expect(binaryContentReason(page)).toBeUndefined();
    expect(binaryContentReason(Buffer.concat([Buffer.from('\ufeff<!doctype html><p>'), Buffer.from([0]), Buffer.from(`</p>${'<p>text</p>'.repeat(50)}`)]))).toBeUndefined();
    expect(binaryContentReason(Buffer.concat([Buffer.from('<\x01\x02'), Buffer.alloc(64)]))).toMatch(/NUL bytes/);
    expect(binaryContentReason(Buffer.concat([Buffer.from('<html>'), Buffer.alloc(2000)]))).toMatch(/control characters/);
  });

  it('calls text in any charset text, including UTF-16 with its byte-order mark and a stray escape sequence', () => {
    expect(binaryContentReason(Buffer.from('# Title\n\nSome *Markdown*\twith a tab.\r\n'))).toBeUndefined();
    expect(binaryContentReason(iconv.encode('Создание индекса', 'windows-1251'))).toBeUndefined();
    expect(binaryContentReason(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<p>Café</p>', 'utf16le')]))).toBeUndefined();
    expect(binaryContentReason(Buffer.from(`\u001b[1mbold\u001b[0m ${'text '.repeat(100)}`))).toBeUndefined();
    expect(binaryContentReason(new Uint8Array())).toBeUndefined();
  });
});
