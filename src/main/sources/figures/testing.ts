// A PDF fixture with known figures, written by hand so every position and pixel size is known:
// embedded RGB images (Flate-compressed), a logo repeated on every page, a tiny icon, a drawn bar
// chart, and captions in Helvetica.
import { crc32, deflateSync } from 'node:zlib';

export interface FixtureImage {
  name: string;
  px: [number, number];
  /** Where it is drawn: x, y of the bottom-left corner and the size, in PDF points (y up). */
  at: [number, number, number, number];
  /** Seed of the pixel pattern, so two images differ. */
  seed: number;
}

export interface FixturePage {
  images: FixtureImage[];
  /** Text lines: x, y (baseline, y up), size, text. */
  text: [number, number, number, string][];
  /** Raw content-stream operators drawn after the images (vector figures). */
  drawing?: string;
}

function pixels(w: number, h: number, seed: number): Buffer {
  const data = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y += 1) {
    for (let x = 0; x < w; x += 1) {
      const i = (y * w + x) * 3;
      data[i] = (x * 255) / w;
      data[i + 1] = (y * 255) / h;
      data[i + 2] = (seed * 97 + x * y) % 256;
    }
  }
  return data;
}

function escapePdf(text: string): string {
  return text.replace(/[\\()]/gu, (c) => `\\${c}`);
}

/** A US Letter PDF (612×792 pt) with the given pages. Images with the same name are one object. */
export function pdfWithFigures(pages: readonly FixturePage[]): Uint8Array {
  const objects: Buffer[] = [];
  const add = (body: Buffer | string): number => {
    objects.push(typeof body === 'string' ? Buffer.from(body, 'latin1') : body);
    return objects.length;
  };
  const stream = (dict: string, data: Buffer): Buffer =>
    Buffer.concat([Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`, 'latin1'), data, Buffer.from('\nendstream', 'latin1')]);

  add('<< /Type /Catalog /Pages 2 0 R >>');
  add(''); // pages, filled in below
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const imageIds = new Map<string, number>();
  for (const page of pages) {
    for (const image of page.images) {
      if (imageIds.has(image.name)) continue;
      const [w, h] = image.px;
      const data = deflateSync(pixels(w, h, image.seed));
      imageIds.set(image.name, add(stream(`/Type /XObject /Subtype /Image /Width ${w} /Height ${h} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode`, data)));
    }
  }
  const pageIds: number[] = [];
  for (const page of pages) {
    const ops: string[] = [];
    for (const image of page.images) {
      const [x, y, w, h] = image.at;
      ops.push(`q ${w} 0 0 ${h} ${x} ${y} cm /${image.name} Do Q`);
    }
    if (page.drawing) ops.push(page.drawing);
    for (const [x, y, size, text] of page.text) ops.push(`BT /F1 ${size} Tf ${x} ${y} Td (${escapePdf(text)}) Tj ET`);
    const contents = add(stream('', Buffer.from(ops.join('\n'), 'latin1')));
    const xobjects = [...new Set(page.images.map((i) => i.name))].map((name) => `/${name} ${imageIds.get(name)} 0 R`).join(' ');
    pageIds.push(add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${contents} 0 R /Resources << /Font << /F1 ${font} 0 R >> /XObject << ${xobjects} >> >> >>`));
  }
  objects[1] = Buffer.from(`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`, 'latin1');

  const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let offset = chunks[0]?.length ?? 0;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(offset);
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`, 'latin1'), body, Buffer.from('\nendobj\n', 'latin1')]);
    chunks.push(chunk);
    offset += chunk.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n`, '0000000000 65535 f \n', ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)].join('');
  chunks.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${offset}\n%%EOF\n`, 'latin1'));
  return new Uint8Array(Buffer.concat(chunks));
}

const logo: FixtureImage = { name: 'Logo', px: [80, 80], at: [540, 740, 40, 40], seed: 1 };

/**
 * Three pages: page 1 a 200×120 px image with "Figure 1." below it and a 16 px icon; page 2 a
 * 320×160 px image with "Fig. 2:" below it; page 3 a bar chart drawn with paths above "Figure 3.".
 * The logo is on every page.
 */
export function paperWithFigures(): Uint8Array {
  return pdfWithFigures([
    {
      images: [logo, { name: 'Chart', px: [200, 120], at: [100, 450, 300, 180], seed: 2 }, { name: 'Icon', px: [16, 16], at: [72, 700, 12, 12], seed: 3 }],
      text: [
        [90, 700, 12, 'Results of the first study'],
        [100, 430, 10, 'Figure 1. Growth of sales in 2023'],
        [72, 380, 11, 'Running text that refers to Figure 1 shows nothing.'],
      ],
    },
    {
      images: [logo, { name: 'Photo', px: [320, 160], at: [72, 400, 400, 200], seed: 4 }],
      text: [[72, 380, 10, 'Fig. 2: Market share by region']],
    },
    {
      images: [logo],
      // Axes and three bars between x 100-400 and y 420-600 (y up), above the caption at 400.
      drawing: '0 0 0 RG 1 w 100 420 m 100 600 l S 100 420 m 400 420 l S 0.2 0.4 0.8 rg 130 420 60 120 re f 230 420 60 160 re f 330 420 60 80 re f',
      text: [
        [120, 408, 8, 'North'],
        [150, 390, 10, 'Figure 3. Revenue by region, drawn as vectors'],
        [72, 300, 11, 'More running text on the third page.'],
      ],
    },
  ]);
}

/** A w×h RGB PNG (a gradient seeded by `seed`), encoded by hand so tests need no image library. */
export function pngBytes(w: number, h: number, seed: number): Uint8Array {
  const raw = Buffer.alloc((w * 3 + 1) * h);
  const rgb = pixels(w, h, seed);
  for (let y = 0; y < h; y += 1) rgb.copy(raw, y * (w * 3 + 1) + 1, y * w * 3, (y + 1) * w * 3);
  const chunk = (type: string, data: Buffer): Buffer => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return new Uint8Array(
    Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]),
  );
}
