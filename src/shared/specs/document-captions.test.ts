import type { Table } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { captionText, collectCaptions } from './document-captions';

/** Each table's caption in reading order, by its header's first cell: `null` for a placeholder. */
function captionsOf(markdown: string): Record<string, string | null> {
  const root = unified().use(remarkParse).use(remarkGfm).parse(markdown);
  const found = collectCaptions([root]);
  const tables = root.children.filter((node): node is Table => node.type === 'table');
  return Object.fromEntries(
    tables.map((table) => {
      const header = captionText(table.children[0]?.children[0]?.children ?? []);
      const caption = found.tables.get(table);
      return [header, caption?.placeholder ? null : captionText(caption?.caption ?? [])];
    }),
  );
}

const table = (name: string): string => `| ${name} |\n| --- |\n| x |`;

describe('which table a caption paragraph belongs to', () => {
  it('gives a caption between two tables to the table below it', () => {
    expect(captionsOf([table('上'), '表：下面的表', table('下'), '正文。'].join('\n\n'))).toEqual({ 上: null, 下: '下面的表' });
    expect(captionsOf([table('A'), 'Table: The lower one', table('B')].join('\n\n'))).toEqual({ A: null, B: 'The lower one' });
  });

  it('gives a caption after a table with no table after it to that table, as pandoc does', () => {
    expect(captionsOf([table('上'), '表：上面的表', '正文。', table('下')].join('\n\n'))).toEqual({ 上: '上面的表', 下: null });
    expect(captionsOf([table('A'), ': Last one'].join('\n\n'))).toEqual({ A: 'Last one' });
  });

  it('keeps captions written after every table with their own tables', () => {
    const markdown = [table('A'), '表：甲', table('B'), '表：乙', table('C'), '表：丙'].join('\n\n');
    expect(captionsOf(markdown)).toEqual({ A: '甲', B: '乙', C: '丙' });
  });

  it('keeps captions written before every table with the table below', () => {
    const markdown = ['表：甲', table('A'), '表：乙', table('B'), '表：丙', table('C')].join('\n\n');
    expect(captionsOf(markdown)).toEqual({ A: '甲', B: '乙', C: '丙' });
  });
});
