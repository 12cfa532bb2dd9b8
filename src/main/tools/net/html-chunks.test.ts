import { describe, expect, it } from 'vitest';
import { splitHtml } from './html-chunks';
import { htmlToMarkdown } from './html-to-markdown';
import { linkPage, tablePage } from './testing-pages';

describe('splitHtml', () => {
  it('leaves a page under the limit as it is', () => {
    const page = '<html><body><p>one <a href="/x">two</a></p></body></html>';
    expect(splitHtml(page, 1000)).toEqual([page]);
  });

  it('closes the open elements at a split and opens them again, attributes included, in the next piece', () => {
    const rows = Array.from({ length: 40 }, (_, i) => `<tr><td>r${i}</td></tr>`).join('');
    const pieces = splitHtml(`<body><table class="t">${rows}</table></body>`, 200);
    expect(pieces.length).toBeGreaterThan(3);
    for (const piece of pieces.slice(0, -1)) expect(piece.endsWith('</table></body>')).toBe(true);
    for (const piece of pieces.slice(1)) expect(piece.startsWith('<body><table class="t">')).toBe(true);
    // Every row is in exactly one piece.
    const all = pieces.join('');
    for (let i = 0; i < 40; i += 1) expect(all.split(`<td>r${i}</td>`)).toHaveLength(2);
  });

  it('never splits or tokenises raw-text elements, and handles implicitly closed paragraphs', () => {
    const script = `<script>if (a < b) { document.write("<p>not a tag</p>"); }</script>`;
    const page = `<body>${'<p>para '.repeat(30)}${script}<p>end</body>`;
    const pieces = splitHtml(page, 50);
    expect(pieces.some((p) => p.includes(script))).toBe(true);
    // Implicitly closed <p>s do not pile up as open elements to reopen.
    expect(pieces.length).toBeGreaterThan(3);
    for (const piece of pieces) expect(piece.startsWith('<body><p><p><p>')).toBe(false);
  });

  it('does not reopen absurdly deep nesting in every piece', () => {
    const deep = `${'<div>'.repeat(2000)}text${'</div>'.repeat(2000)}`;
    const pieces = splitHtml(deep, 1000);
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(12_000);
  });
});

describe('htmlToMarkdown on pathological pages', () => {
  it('converts a 1.16 MB table whole, every row kept (it took 61 s before the page was split)', () => {
    const page = tablePage();
    const started = performance.now();
    const { markdown, complete } = htmlToMarkdown(page, 'https://example.com/');
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(complete).toBe(true);
    const lastRow = /row (\d+)<\/td><td>[^\n]*\n<\/tbody>/u.exec(page)?.[1];
    expect(lastRow).toBeDefined();
    expect(markdown).toContain(`row ${lastRow}`);
    expect(markdown).toContain('| row 0 ');
  });

  it('stops converting once it has the markdown asked for, and says so', () => {
    const { markdown, complete } = htmlToMarkdown(linkPage(), 'https://example.com/', 50_000);
    expect(complete).toBe(false);
    expect(markdown.length).toBeGreaterThanOrEqual(50_000);
    expect(markdown.length).toBeLessThan(120_000);
    expect(markdown).toContain('[item 0](https://example.com/item/0)');
  });
});
