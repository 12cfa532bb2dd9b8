// Page vectors as stored in library_pages.embedding: little-endian Float32, 4 bytes per dimension.

export function toBlob(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

/** A view when the bytes are 4-aligned (no copy), else a copy: Float32Array needs aligned offsets. */
export function fromBlob(blob: Uint8Array): Float32Array {
  const length = Math.floor(blob.byteLength / 4);
  if (blob.byteOffset % 4 === 0) return new Float32Array(blob.buffer, blob.byteOffset, length);
  return new Float32Array(blob.slice(0, length * 4).buffer);
}
