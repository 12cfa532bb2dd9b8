import { describe, expect, it } from 'vitest';
import { parseCsv, guessDelimiter } from './csv';
import { decodeText, isPlainUtf8 } from './decode';
import { htmlToMarkdown } from './docx';
import { markdownTable } from './markdown';
import { joinRuns } from './pdf';
import { paragraphs } from './pptx';
import { sheetRows } from './xlsx';
import { decodeEntities, resolvePart } from './xml';

const run = (str: string, x: number, y: number, width: number, hasEOL = false) => ({ str, transform: [10, 0, 0, 10, x, y], width, height: 10, hasEOL });

describe('joinRuns (PDF text items → lines)', () => {
  it('breaks lines when the baseline moves, and paragraphs on a large gap', () => {
    const items = [run('Hello', 72, 700, 25), run('world', 100, 700, 25), run('Next line', 72, 688, 45), run('New paragraph', 72, 650, 60)];
    expect(joinRuns(items)).toBe('Hello world\nNext line\n\nNew paragraph');
  });

  it('does not put spaces inside CJK text split into adjacent runs, and honours hasEOL', () => {
    const items = [run('研究', 72, 700, 20), run('背景', 92, 700, 20, true), run('结论', 72, 700 - 0.2, 20)];
    expect(joinRuns(items)).toBe('研究背景\n结论');
  });

  it('ignores marked-content entries', () => {
    expect(joinRuns([{ type: 'beginMarkedContent' }, run('x', 0, 0, 5)])).toBe('x');
  });

  it('never puts spaces between CJK characters that justified text spread apart', () => {
    const items = [run('文', 0, 100, 10), run('档', 14, 100, 10), run('智能', 28, 100, 20), run('AI', 60, 100, 10), run('模', 80, 100, 10)];
    expect(joinRuns(items)).toBe('文档智能 AI 模');
  });

  it('matches the straightforward line-joining rules on random runs', () => {
    // The rules written plainly (as joinRuns first was); joinRuns is the allocation-free version.
    const reference = (items: { str: string; x: number; y: number; width: number; height: number; eol: boolean }[]) => {
      const lines: string[] = [];
      let line = '';
      let lineY: number | null = null;
      let lineHeight = 0;
      let lastEndX: number | null = null;
      let prevLineY: number | null = null;
      const flush = () => {
        const text = line.replace(/\s+$/u, '');
        if (text !== '') {
          if (prevLineY !== null && lineY !== null && prevLineY - lineY > lineHeight * 1.8) lines.push('');
          lines.push(text);
          prevLineY = lineY;
        }
        line = '';
        lineY = null;
        lastEndX = null;
      };
      for (const r of items) {
        if (lineY !== null && line.trim() !== '' && Math.abs(r.y - lineY) > Math.max(r.height, lineHeight) * 0.5) flush();
        if (r.str !== '') {
          if (lineY === null) {
            lineY = r.y;
            lineHeight = r.height;
          } else if (
            lastEndX !== null &&
            r.x - lastEndX > r.height * 0.2 &&
            !/\s$/u.test(line) &&
            !/^\s/u.test(r.str) &&
            !(/[\u3000-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]$/u.test(line) && /^[\u3000-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]/u.test(r.str))
          ) {
            line += ' ';
          }
          line += r.str;
          lastEndX = r.x + r.width;
        }
        if (r.eol) flush();
      }
      flush();
      return lines.join('\n');
    };
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const pieces = ['', ' ', 'word', '研究', ' lead', 'trail ', '\u3000全角', 'x\u00a0', '\t'];
    for (let trial = 0; trial < 200; trial += 1) {
      const items = Array.from({ length: 1 + Math.floor(rand() * 30) }, () => ({
        str: pieces[Math.floor(rand() * pieces.length)] ?? '',
        x: Math.floor(rand() * 300),
        y: 700 - Math.floor(rand() * 6) * 8,
        width: Math.floor(rand() * 60),
        height: rand() < 0.2 ? 0 : 8 + Math.floor(rand() * 6),
        eol: rand() < 0.15,
      }));
      const pdfjsItems = items.map((r) => ({ str: r.str, transform: [r.height || 12, 0, 0, r.height || 12, r.x, r.y], width: r.width, height: r.height, hasEOL: r.eol }));
      const expected = reference(items.map((r) => ({ ...r, height: r.height || 12 })));
      expect(joinRuns(pdfjsItems)).toBe(expected);
    }
  });
});

describe('CSV', () => {
  it('parses quotes, doubled quotes, CRLF and newlines inside quotes', () => {
    expect(parseCsv('a,b\r\n"1,2","say ""x""\nok"\r\n,last\n', ',')).toEqual([
      ['a', 'b'],
      ['1,2', 'say "x"\nok'],
      ['', 'last'],
    ]);
  });

  it('guesses semicolons and tabs', () => {
    expect(guessDelimiter('a;b;c\n1;2;3')).toBe(';');
    expect(guessDelimiter('a\tb\n')).toBe('\t');
    expect(guessDelimiter('a,b\n')).toBe(',');
  });
});

describe('text decoding', () => {
  it('falls back to GB18030 for bytes that are not UTF-8', () => {
    expect(decodeText(new Uint8Array([0xd6, 0xd0, 0xce, 0xc4]))).toEqual({ text: '中文', encoding: 'gb18030' });
    expect(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, 0x41]))).toEqual({ text: 'A', encoding: 'utf-8' });
    expect(decodeText(new Uint8Array([0xfe, 0xff, 0x4e, 0x2d]))).toEqual({ text: '中', encoding: 'utf-16be' });
    expect(isPlainUtf8(new TextEncoder().encode('中文'))).toBe(true);
    expect(isPlainUtf8(new Uint8Array([0xd6, 0xd0]))).toBe(false);
  });
});

describe('OOXML helpers', () => {
  it('reads DrawingML paragraphs with line breaks and entities', () => {
    const xml = '<a:p><a:r><a:t>A &amp; B</a:t></a:r><a:br/><a:r><a:t xml:space="preserve">next</a:t></a:r></a:p><a:p><a:r><a:t> </a:t></a:r></a:p>';
    expect(paragraphs(xml)).toEqual(['A & B\nnext']);
  });

  it('places cells by their reference and skips empty rows', () => {
    const xml = '<row r="1"><c r="B1" t="s"><v>0</v></c></row><row r="2"/><row r="3"><c r="A3"><v>7</v></c></row>';
    expect(sheetRows(xml, ['x'])).toEqual({ rows: [['', 'x'], ['7']], total: 2 });
  });

  it('resolves relationship targets and decodes numeric entities', () => {
    expect(resolvePart('ppt/slides', '../notesSlides/notesSlide1.xml')).toBe('ppt/notesSlides/notesSlide1.xml');
    expect(resolvePart('xl', '/xl/worksheets/sheet2.xml')).toBe('xl/worksheets/sheet2.xml');
    expect(decodeEntities('&#20013;&#x6587;&lt;')).toBe('中文<');
  });

  it('turns mammoth HTML into markdown', () => {
    expect(htmlToMarkdown('<h2>Plan</h2><p>a &lt; b</p><ul><li>one</li><li>two</li></ul><table><tr><td><p>x</p><p>z</p></td><td>y</td></tr></table>')).toBe(
      '## Plan\n\na < b\n\n- one\n- two\n\n| x z | y |',
    );
  });

  it('escapes pipes in table cells', () => {
    expect(markdownTable([['a|b'], ['c']])).toBe('| a\\|b |\n| --- |\n| c |');
  });
});
