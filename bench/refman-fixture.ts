// A long reference manual made once by LibreOffice and kept in the temp folder: the shape of the
// issue's refman.pdf (a generated API manual of 2,415 pages), which no Debian package here ships.
// One document, one set of faces shared by every page (serif body, sans headings, mono code), a
// parameter table on every page, a figure every 25 pages, links between sections and an outline.
// A `pdfunite` of many small manuals is not a stand-in: it keeps every copy's fonts (945 font
// objects where one manual has a dozen), and each is parsed and cached on its own.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';

export const REFMAN_PAGES = 2415;
/** Bump to rebuild the cached file when its content changes. */
const VERSION = 2;
const FIGURE_EVERY = 25;

const WORDS = (
  'the a of to in is for with on returns value when buffer handle context stream parser node tree list entry index offset length ' +
  'pointer callback option flag error status default allocated freed caller owns memory thread safe lock module function ' +
  'structure field member type string encoding character width height page document object reference counted released ' +
  'initialised configured ignored deprecated since version optional required argument parameter result output input'
).split(' ');

/** A deterministic generator, so every run builds the same file. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 0x100000000;
  };
}

function sentence(next: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i += 1) out.push(WORDS[Math.floor(next() * WORDS.length)]);
  const text = out.join(' ');
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
}

function paragraph(next: () => number, sentences: number): string {
  return Array.from({ length: sentences }, () => sentence(next, 8 + Math.floor(next() * 10))).join(' ');
}

const escape = (text: string): string => text.replace(/&/gu, '&amp;').replace(/</gu, '&lt;').replace(/>/gu, '&gt;');

function functionName(page: number): string {
  return `folio_${WORDS[page % WORDS.length]}_${WORDS[(page * 7) % WORDS.length]}_${page}`;
}

function pageHtml(page: number, total: number, next: () => number): string {
  const name = functionName(page);
  const chapter = Math.ceil(page / 50);
  const params = Array.from({ length: 7 }, (_, i) => `<tr><td><code>arg${i}</code></td><td>${i % 2 === 0 ? 'size_t' : 'const char *'}</td><td>${escape(sentence(next, 7))}</td></tr>`).join('');
  const code = [`int ${name}(struct folio_ctx *ctx,`, '    const char *arg1, size_t arg2)', '{', '    if (ctx == NULL)', '        return -EINVAL;', `    return folio_call(ctx, ${page});`, '}'].join('\n');
  const seeAlso = [page - 1, page + 1, ((page * 13) % total) + 1].filter((p) => p >= 1 && p <= total);
  const figure = page % FIGURE_EVERY === 0 ? `<p><img src="figure.png" width="300" height="150" alt="call graph"></p><p><i>Figure ${page / FIGURE_EVERY}: call graph of ${name}</i></p>` : '';
  return [
    `<h2 id="p${page}" style="page-break-before: always">${chapter}.${page} ${name}</h2>`,
    `<p>${escape(paragraph(next, 6))}</p>`,
    `<pre>${escape(code)}</pre>`,
    '<table border="1" cellpadding="3"><tr><th>Parameter</th><th>Type</th><th>Description</th></tr>',
    params,
    '</table>',
    `<p><b>Returns:</b> ${escape(sentence(next, 12))}</p>`,
    `<p>${escape(paragraph(next, figure ? 2 : 7))}</p>`,
    `<p><b>Note:</b> ${escape(paragraph(next, figure ? 1 : 4))}</p>`,
    figure,
    `<p><b>See also:</b> ${seeAlso.map((p) => `<a href="#p${p}">${functionName(p)}</a>`).join(', ')}</p>`,
  ].join('\n');
}

/** A small bar chart, as a manual's diagrams are pictures. */
function figurePng(): Buffer {
  const png = new PNG({ width: 300, height: 150 });
  for (let y = 0; y < png.height; y += 1) {
    for (let x = 0; x < png.width; x += 1) {
      const bar = Math.floor(x / 30);
      const top = 20 + ((bar * 37) % 110);
      const inBar = x % 30 > 5 && y > top;
      const i = (y * png.width + x) * 4;
      png.data[i] = inBar ? 40 : 250;
      png.data[i + 1] = inBar ? 90 + bar * 12 : 250;
      png.data[i + 2] = inBar ? 160 : 250;
      png.data[i + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}

/** The cached manual's path, built first when missing (a few minutes of LibreOffice). */
export function refmanFixture(pages = REFMAN_PAGES): string {
  const file = join(tmpdir(), `folio-bench-refman-${pages}p-v${VERSION}.pdf`);
  if (existsSync(file)) return file;
  const work = mkdtempSync(join(tmpdir(), 'folio-bench-refman-'));
  try {
    const next = random(27);
    const body = Array.from({ length: pages }, (_, i) => pageHtml(i + 1, pages, next)).join('\n');
    writeFileSync(join(work, 'figure.png'), figurePng());
    const html = join(work, 'refman.html');
    writeFileSync(
      html,
      `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Folio C API reference manual</title>` +
        `<style>body{font-family:'Liberation Serif';font-size:11pt} h2{font-family:'Liberation Sans'} pre,code{font-family:'Liberation Mono';font-size:9pt}</style>` +
        `</head><body>${body}</body></html>`,
    );
    execFileSync(
      'soffice',
      [`-env:UserInstallation=file://${join(work, 'profile')}`, '--headless', '--infilter=HTML (StarWriter)', '--convert-to', 'pdf:writer_pdf_Export', '--outdir', work, html],
      { stdio: 'ignore', timeout: 1_200_000 },
    );
    renameSync(join(work, 'refman.pdf'), file);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return file;
}
