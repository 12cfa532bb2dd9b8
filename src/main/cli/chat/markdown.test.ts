import { describe, expect, it } from 'vitest';
import { completeBlocksLength, renderMarkdown } from './markdown';

const plain = (s: string) => s.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');

describe('replies as markdown in the terminal', () => {
  it('renders headings, bold, lists, tables and code without their markup', () => {
    const out = plain(renderMarkdown('# 结果 Results\n\nThe mean is **4.2** and `x` grew.\n\n- one\n- 二\n\n| a | 列 |\n|---|---|\n| 1 | 二 |\n\n```python\nprint(1)\n```\n'));
    expect(out).toContain('结果 Results');
    expect(out).not.toContain('#');
    expect(out).toContain('The mean is 4.2 and x grew.');
    expect(out).not.toContain('**');
    expect(out).toMatch(/\* one\n\s+\* 二/);
    expect(out).toContain('│ a │ 列 │');
    expect(out).toContain('print(1)');
    expect(out).not.toContain('```');
    expect(out).not.toMatch(/\n$/);
  });

  it('renders bold, italics and code inside list items too', () => {
    const out = plain(renderMarkdown('- 研究内容约 **4000** 字，见 `work/spec_lock.md`\n\n1. a *b* c\n'));
    expect(out).toContain('研究内容约 4000 字，见 work/spec_lock.md');
    expect(out).toContain('a b c');
    expect(out).not.toMatch(/[*`]{1,2}\S/);
  });

  it('keeps :word: as text (no emoji) and leaves plain text alone', () => {
    expect(plain(renderMarkdown('Meet at 10:30:00, see :smile:'))).toBe('Meet at 10:30:00, see :smile:');
  });

  it('cuts a streaming reply after its last complete block, never inside a code fence', () => {
    expect(completeBlocksLength('one line')).toBe(0);
    expect(completeBlocksLength('para one\n\npara tw')).toBe('para one\n\n'.length);
    expect(completeBlocksLength('para one\n\n| a |\n|---|\n| 1')).toBe('para one\n\n'.length);
    const fenced = 'intro\n\n```\ncode\n\nmore code\n';
    expect(completeBlocksLength(fenced)).toBe('intro\n\n'.length);
    const closed = `${fenced}\`\`\`\n\nafter`;
    expect(completeBlocksLength(closed)).toBe(closed.length - 'after'.length);
  });
});
