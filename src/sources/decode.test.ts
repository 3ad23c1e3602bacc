import { describe, expect, it } from 'vitest';
import { decodeDocument } from './decode.js';

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
