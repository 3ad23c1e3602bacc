import { createHash } from 'node:crypto';

/** Hex SHA-256 of the text: content hashes of pages and chunks. */
export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
