// A PDF flate bomb is refused before pdfjs decodes it, quickly and with a typed "too large" result;
// an ordinary compressed PDF is read as before.
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { maxUnzippedBytes } from '../limits';
import { extractPdf } from './pdf';
import { pdfInflatesBeyond } from './pdf-inflate';

const MB = 1024 * 1024;

/** A one-page PDF whose content stream is `content`, Flate-compressed `layers` times. */
function flatePdf(content: Buffer, layers = 1): Uint8Array {
  let data = content;
  for (let i = 0; i < layers; i++) data = zlib.deflateSync(data, { level: 9 });
  const filter = layers === 1 ? '/FlateDecode' : `[${Array.from({ length: layers }, () => '/FlateDecode').join(' ')}]`;
  const head = Buffer.from(
    '%PDF-1.4\n1 0 obj <</Type/Catalog/Pages 2 0 R>> endobj\n2 0 obj <</Type/Pages/Kids[3 0 R]/Count 1>> endobj\n' +
      '3 0 obj <</Type/Page/Parent 2 0 R/MediaBox[0 0 300 300]/Contents 4 0 R/Resources <</Font <</F1 5 0 R>>>>>> endobj\n' +
      '5 0 obj <</Type/Font/Subtype/Type1/BaseFont/Helvetica>> endobj\n' +
      `4 0 obj <</Length ${data.length}/Filter ${filter}>>\nstream\n`,
    'latin1',
  );
  const tail = Buffer.from('\nendstream\nendobj\ntrailer <</Root 1 0 R>>\n%%EOF\n', 'latin1');
  return new Uint8Array(Buffer.concat([head, data, tail]));
}

describe('PDF flate bombs', () => {
  it('refuses a PDF whose stream inflates past the limit, without reading it', async () => {
    // 70 MB of spaces compress to about 70 KB: the limit for such a file is the 64 MB floor.
    const bomb = flatePdf(Buffer.alloc(70 * MB, 0x20));
    expect(bomb.byteLength).toBeLessThan(1 * MB);
    expect(pdfInflatesBeyond(bomb, maxUnzippedBytes(bomb.byteLength)).exceeded).toBe(true);
    const result = await extractPdf(bomb, () => undefined);
    expect(result.status).toBe('error');
    expect(result.message).toMatch(/^too large: its compressed streams unpack to more than 64\.0 MB/u);
  });

  it('counts every Flate layer of a filter chain', () => {
    const nested = flatePdf(Buffer.alloc(70 * MB, 0x20), 2);
    expect(nested.byteLength).toBeLessThan(64 * 1024);
    expect(pdfInflatesBeyond(nested, 64 * MB).exceeded).toBe(true);
  });

  it('reads an ordinary compressed PDF', async () => {
    const pdf = flatePdf(Buffer.from('BT /F1 12 Tf 20 200 Td (Compressed hello) Tj ET', 'latin1'));
    expect(pdfInflatesBeyond(pdf, 64 * MB)).toMatchObject({ exceeded: false });
    const result = await extractPdf(pdf, () => undefined);
    expect(result.status).toBe('ok');
    expect(result.markdown).toContain('Compressed hello');
  });
});
