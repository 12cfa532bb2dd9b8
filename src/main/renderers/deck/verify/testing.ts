// A small deck built straight with pptxgenjs, where the truth is known: one good slide and one
// slide per problem the rendered-slide check reports. Shared by verify.test.ts and the bench.
import PptxGenJS from 'pptxgenjs';
import { deflateSync } from 'node:zlib';
import { type PlannedBox, type PlannedSlide, type Rect, type VerifyInput } from './types';

export const SIZE = { w: 10, h: 5.625 };
export const FOOTER_TOP = 5.0;
const FONT = 'DejaVu Sans';
const BODY_REGION: Rect = { x: 0.5, y: 1.3, w: 9, h: 3.6 };

/** A solid-colour PNG of w×h pixels. */
export function solidPng(w: number, h: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const byte of buf) c = (crcTable[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(w * 3, 0x5a)]);
  const raw = Buffer.concat(Array.from({ length: h }, () => row));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

interface TextSpec extends PlannedBox {
  text: string;
  size: number;
  valign?: 'top' | 'middle' | 'bottom';
  align?: 'left' | 'center' | 'right';
}

const isText = (box: TextSpec | PlannedBox): box is TextSpec => 'size' in box;

const GOOD_BULLETS = [
  'Revenue grew 12% on the new enterprise plan',
  'Churn fell to 3.1% after the onboarding rework',
  'Support tickets per customer halved this year',
  'Two new regions opened: Frankfurt and Singapore',
  // As the deck sets Chinese: no typed space beside LibreOffice's own CJK–Latin gap.
  '招聘保持不变，直到2025年下半年(hiring flat)',
];

/** The kinds each slide of the test deck must be flagged with, by slide number. */
export const EXPECTED: Record<number, string[]> = {
  1: [],
  2: ['in_footer', 'off_slide', 'outside_box'],
  3: ['in_footer'],
  4: ['overlap'],
  5: ['title_lines'],
  6: ['underfilled'],
  7: ['upscaled_image'],
};

function chrome(n: number): TextSpec[] {
  return [
    { id: 'footer', role: 'footer', x: 0.5, y: 5.15, w: 3, h: 0.3, text: 'Verify test deck', size: 10 },
    { id: 'number', role: 'number', x: 9.0, y: 5.15, w: 0.5, h: 0.3, text: String(n), size: 10, align: 'right' },
  ];
}

const title = (text: string, h = 0.8): TextSpec => ({ id: 'title', role: 'title', x: 0.5, y: 0.3, w: 9, h, text, size: 28, valign: 'top' });
const body = (text: string, r: Rect = BODY_REGION, size = 24): TextSpec => ({ id: 'body', role: 'body', ...r, text, size, valign: 'top' });

function slides(): { boxes: (TextSpec | PlannedBox)[]; body?: Rect; image?: Buffer }[] {
  const good = GOOD_BULLETS.join('\n');
  return [
    { boxes: [title('Quarterly results'), body(good)], body: BODY_REGION },
    {
      boxes: [title('Everything we learned'), body(Array.from({ length: 40 }, (_, i) => `Overflowing line number ${i + 1} of the notes`).join('\n'), { x: 0.5, y: 1.3, w: 9, h: 2.5 }, 20)],
      body: BODY_REGION,
    },
    {
      boxes: [title('Quarterly results'), body(good, { x: 0.5, y: 1.3, w: 9, h: 3.2 }), { id: 'source', role: 'caption', x: 3.8, y: 4.75, w: 5, h: 0.45, text: 'Source: internal survey, spring 2024', size: 14, valign: 'bottom', align: 'right' }],
      body: BODY_REGION,
    },
    {
      boxes: [title('Quarterly results'), body(good), { id: 'stamp', role: 'label', x: 4.5, y: 1.3, w: 5, h: 0.6, text: 'PRELIMINARY FIGURES', size: 28, valign: 'top' }],
      body: BODY_REGION,
    },
    {
      boxes: [
        title('What the customer interviews told us about onboarding, pricing and the support response times', 1.6),
        body(good, { x: 0.5, y: 2.0, w: 9, h: 2.9 }),
      ],
      body: { x: 0.5, y: 2.0, w: 9, h: 2.9 },
    },
    { boxes: [title('Next steps'), body('Coming soon')], body: BODY_REGION },
    { boxes: [title('Site photo'), { id: 'photo', role: 'image', x: 2.5, y: 1.2, w: 5, h: 3.75, pixels: { w: 160, h: 120 } }], body: BODY_REGION, image: solidPng(160, 120) },
  ];
}

/**
 * Writes the deck to `path` and returns the plan the check is given. With `count`, the slides
 * repeat until there are that many (for timing).
 */
export async function writeTestDeck(path: string, count?: number): Promise<VerifyInput> {
  const pptx = new PptxGenJS();
  pptx.layout = 'LAYOUT_16x9';
  const planned: PlannedSlide[] = [];
  const base = slides();
  const total = count ?? base.length;
  for (let n = 0; n < total; n += 1) {
    const i = n % base.length;
    const spec = base[i];
    if (!spec) continue;
    const number = n + 1;
    const slide = pptx.addSlide();
    const boxes = [...spec.boxes, ...chrome(number)];
    for (const box of boxes) {
      if (isText(box)) {
        slide.addText(box.text, { x: box.x, y: box.y, w: box.w, h: box.h, fontSize: box.size, fontFace: FONT, valign: box.valign ?? 'top', align: box.align ?? 'left', margin: 0.05 * 72, fit: 'none' });
      } else if (box.role === 'image' && spec.image) {
        slide.addImage({ data: `image/png;base64,${spec.image.toString('base64')}`, x: box.x, y: box.y, w: box.w, h: box.h });
      }
    }
    planned.push({
      number,
      sourceIndex: n,
      boxes: boxes.map((b) => ({ id: b.id, role: b.role, x: b.x, y: b.y, w: b.w, h: b.h, ...(b.text ? { text: b.text } : {}), ...(b.pixels ? { pixels: b.pixels } : {}) })),
      ...(spec.body ? { body: spec.body } : {}),
    });
  }
  await pptx.writeFile({ fileName: path });
  return { pptxPath: path, size: SIZE, footerTop: FOOTER_TOP, slides: planned };
}
