// Pixel size of PNG and JPEG images, read from their headers so no image library is needed.

export type ImageInfo = { type: 'png' | 'jpg'; width: number; height: number };

export function readImageInfo(data: Uint8Array): ImageInfo | undefined {
  return readPng(data) ?? readJpeg(data);
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function readPng(data: Uint8Array): ImageInfo | undefined {
  if (data.length < 24 || !PNG_SIGNATURE.every((byte, i) => data[i] === byte)) return undefined;
  // The first chunk must be IHDR: width and height are its first two big-endian uint32s.
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (String.fromCharCode(data[12] ?? 0, data[13] ?? 0, data[14] ?? 0, data[15] ?? 0) !== 'IHDR') return undefined;
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  return width > 0 && height > 0 ? { type: 'png', width, height } : undefined;
}

function readJpeg(data: Uint8Array): ImageInfo | undefined {
  if (data.length < 4 || data[0] !== 0xff || data[1] !== 0xd8) return undefined;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let offset = 2;
  while (offset + 4 <= data.length) {
    if (data[offset] !== 0xff) return undefined;
    const marker = data[offset + 1] ?? 0;
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return undefined; // end of image / start of scan before a frame header
    const length = view.getUint16(offset + 2);
    // SOF0..SOF15 carry the frame size, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (offset + 9 > data.length) return undefined;
      const height = view.getUint16(offset + 5);
      const width = view.getUint16(offset + 7);
      return width > 0 && height > 0 ? { type: 'jpg', width, height } : undefined;
    }
    offset += 2 + length;
  }
  return undefined;
}
