/** A typed array's bytes, as a Buffer over the same memory (no copy), for a BLOB column. */
export function blobOf(array: Float32Array | Float64Array | Uint16Array | Uint32Array): Buffer {
  return Buffer.from(array.buffer, array.byteOffset, array.byteLength);
}

/** A copy of a BLOB with its own aligned buffer: a Buffer from SQLite may start at any offset, which typed arrays refuse. */
export function alignedCopy(bytes: Buffer): ArrayBuffer {
  const buffer = new ArrayBuffer(bytes.length);
  new Uint8Array(buffer).set(bytes);
  return buffer;
}
