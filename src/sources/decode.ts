import iconv from 'iconv-lite';

/**
 * Bytes of a document to text, the way browsers sniff it: a byte-order mark first, then the
 * charset of the Content-Type header, then a `<meta charset>` in the first 2 KiB (HTML), else
 * UTF-8. iconv-lite, because Node's TextDecoder reads windows-1252 as Latin-1.
 */
export function decodeDocument(bytes: Uint8Array, options: { contentType?: string; html: boolean }): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fromBom = bomEncoding(buffer);
  const fromHeader = /charset=["']?([\w-]+)/i.exec(options.contentType ?? '')?.[1];
  const fromMeta = options.html ? /<meta[^>]+charset=["']?([\w-]+)/i.exec(buffer.subarray(0, 2048).toString('latin1'))?.[1] : undefined;
  const label = [fromBom, fromHeader, fromMeta].find((candidate) => candidate !== undefined && iconv.encodingExists(candidate)) ?? 'utf-8';
  return iconv.decode(buffer, label);
}

function bomEncoding(buffer: Buffer): string | undefined {
  if (buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf) return 'utf-8';
  if (buffer[0] === 0xff && buffer[1] === 0xfe) return 'utf-16le';
  if (buffer[0] === 0xfe && buffer[1] === 0xff) return 'utf-16be';
  return undefined;
}
