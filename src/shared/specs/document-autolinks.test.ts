import type { Link, Paragraph } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { trimCjkFromAutolinks } from './document-autolinks';

function paragraph(markdown: string): Paragraph {
  const root = unified().use(remarkParse).use(remarkGfm).parse(markdown);
  trimCjkFromAutolinks(root);
  return root.children[0] as Paragraph;
}
const links = (p: Paragraph): { url: string; text: string }[] =>
  p.children.filter((c): c is Link => c.type === 'link').map((l) => ({ url: l.url, text: l.children.map((c) => ('value' in c ? c.value : '')).join('') }));
const text = (p: Paragraph): string => p.children.map((c) => (c.type === 'link' ? `<${c.children.map((t) => ('value' in t ? t.value : '')).join('')}>` : 'value' in c ? c.value : '')).join('');

describe('bare URLs in Chinese text', () => {
  it('end at the first full-width mark or Chinese character, which stay in the text', () => {
    const p = paragraph('评测协议见（https://example.org/benchmark/protocol）。数据见 https://github.com/example-org/doc-ai的说明。');
    expect(links(p)).toEqual([
      { url: 'https://example.org/benchmark/protocol', text: 'https://example.org/benchmark/protocol' },
      { url: 'https://github.com/example-org/doc-ai', text: 'https://github.com/example-org/doc-ai' },
    ]);
    expect(text(p)).toBe('评测协议见（<https://example.org/benchmark/protocol>）。数据见 <https://github.com/example-org/doc-ai>的说明。');
  });

  it('keeps www. and e-mail autolinks, and leaves written links alone', () => {
    expect(links(paragraph('主页 www.example.org，邮箱 team@example.org。'))).toEqual([
      { url: 'http://www.example.org', text: 'www.example.org' },
      { url: 'mailto:team@example.org', text: 'team@example.org' },
    ]);
    expect(links(paragraph('见[项目主页（中文）](https://example.org/中文)。'))).toEqual([{ url: 'https://example.org/中文', text: '项目主页（中文）' }]);
  });
});
