import { analyse } from 'chardet';
import iconv from 'iconv-lite';

/** Bytes read to guess an undeclared charset: enough for the detector, cheap on a 10 MB page. */
const DETECTION_SAMPLE_BYTES = 64 * 1024;
/** Bytes looked at to tell text from binary, as git and browsers do (mimesniff reads 1,445). */
const SNIFF_BYTES = 8 * 1024;
/** More control bytes than this share of the sample: not a document anyone wrote. */
const MAX_CONTROL_SHARE = 0.02;
/** A Western (Latin-1) candidate this close to the detector's best guess wins. */
const WESTERN_TIE = 0.8;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Bytes of a document to text, the way browsers sniff it: a byte-order mark first, then the
 * charset of the Content-Type header, then a `<meta charset>` in the first 2 KiB (HTML). With
 * none of those, valid UTF-8 is UTF-8, and anything else goes to a statistical detector
 * (chardet), so a Latin-1 page served without a charset is not read as mojibake.
 * iconv-lite, because Node's TextDecoder reads windows-1252 as Latin-1.
 */
export function decodeDocument(bytes: Uint8Array, options: { contentType?: string; html: boolean }): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fromBom = bomEncoding(buffer);
  const fromHeader = /charset=["']?([\w-]+)/i.exec(options.contentType ?? '')?.[1];
  const fromMeta = options.html ? /<meta[^>]+charset=["']?([\w-]+)/i.exec(buffer.subarray(0, 2048).toString('latin1'))?.[1] : undefined;
  const declared = [fromBom, fromHeader, fromMeta].find((candidate) => candidate !== undefined && iconv.encodingExists(candidate));
  return iconv.decode(buffer, declared ?? undeclaredEncoding(buffer));
}

/** UTF-8 when the bytes are valid UTF-8 (ASCII included); otherwise the detector's guess, near ties going to windows-1252. */
function undeclaredEncoding(buffer: Buffer): string {
  try {
    strictUtf8.decode(buffer);
    return 'utf-8';
  } catch {
    const candidates = analyse(buffer.subarray(0, DETECTION_SAMPLE_BYTES)).filter((match) => iconv.encodingExists(match.name));
    const best = candidates[0];
    // Short pages leave the detector torn between Latin-1 and its neighbours (ISO-8859-2, -9):
    // a near tie goes to windows-1252, the Web's most common legacy charset and browsers' default.
    // (The Encoding Standard reads the label ISO-8859-1 as windows-1252, as every browser does.)
    const western = candidates.find((match) => /^(ISO-8859-1|windows-1252)$/i.test(match.name));
    if (best === undefined || (western !== undefined && western.confidence >= best.confidence * WESTERN_TIE) || /^(ASCII|UTF-8)$/i.test(best.name)) return 'windows-1252';
    return best.name;
  }
}

function bomEncoding(buffer: Buffer): string | undefined {
  if (buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf) return 'utf-8';
  if (buffer[0] === 0xff && buffer[1] === 0xfe) return 'utf-16le';
  if (buffer[0] === 0xfe && buffer[1] === 0xff) return 'utf-16be';
  return undefined;
}

/** How an HTML or XML document opens (after a UTF-8 byte-order mark and white space). */
const MARKUP_START = /^(?:\xef\xbb\xbf)?\s*<(?:!doctype\s|html[\s>]|\?xml\s|!--)/i;

/**
 * Why these bytes are not a text document (an image or archive served as text/html, random
 * bytes, a binary file named `.md`), or undefined for text. The rule is the "binary data
 * byte" of the WHATWG MIME Sniffing standard: a NUL, or control bytes (C0 except tab, line
 * feed, form feed, carriage return and escape) beyond a small share of the first 8 KiB. Bytes
 * above 0x7F never count, so legacy 8-bit charsets (windows-1251, KOI8-R) stay text; a
 * UTF-16 byte-order mark makes it text whatever its NULs.
 */
export function binaryContentReason(bytes: Uint8Array): string | undefined {
  const sample = bytes.subarray(0, SNIFF_BYTES);
  if ((sample[0] === 0xff && sample[1] === 0xfe) || (sample[0] === 0xfe && sample[1] === 0xff)) return undefined;
  // A document that opens as HTML or XML is markup: a stray NUL in it (Commons Lang's Javadoc
  // shows the NUL character in a <code>) is one control byte among its text, which the HTML
  // parser drops, not the mark of an image or an archive.
  const markup = MARKUP_START.test(Buffer.from(sample.subarray(0, 64)).toString('latin1'));
  let control = 0;
  for (const byte of sample) {
    if (byte === 0 && !markup) return 'it holds NUL bytes, so it is binary data, not text';
    if (byte <= 0x08 || byte === 0x0b || (byte >= 0x0e && byte <= 0x1a) || (byte >= 0x1c && byte <= 0x1f)) control += 1;
  }
  if (sample.length > 0 && control / sample.length > MAX_CONTROL_SHARE) {
    return `${Math.round((control / sample.length) * 100)}% of its first bytes are control characters, so it is binary data, not text`;
  }
  return undefined;
}
