// Bytes → text for sources that are text: UTF-8 (with or without BOM), UTF-16 with a BOM, and
// GB18030 (a superset of GBK) when the bytes are not valid UTF-8 — many Chinese files still are GBK.

export interface DecodedText {
  text: string;
  encoding: 'utf-8' | 'utf-16le' | 'utf-16be' | 'gb18030';
}

export function decodeText(bytes: Uint8Array): DecodedText {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { text: new TextDecoder('utf-8').decode(bytes.subarray(3)), encoding: 'utf-8' };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { text: new TextDecoder('utf-16le').decode(bytes.subarray(2)), encoding: 'utf-16le' };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { text: new TextDecoder('utf-16be').decode(bytes.subarray(2)), encoding: 'utf-16be' };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    return { text: new TextDecoder('gb18030').decode(bytes), encoding: 'gb18030' };
  }
}

/** True when the bytes are plain UTF-8 text that needs no conversion to be read as is. */
export function isPlainUtf8(bytes: Uint8Array): boolean {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return false;
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}
