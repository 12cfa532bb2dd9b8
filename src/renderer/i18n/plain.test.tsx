// Tooltips, aria labels and the run announcer are shown or read without the page's autospace, so in
// Chinese the gap between Chinese and Latin is typed in them; the names and paths put into them are not touched.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Run } from '../../shared/contract';
import { RunFooter } from '../components/RunFooter';
import { useApp } from '../state/app-store';
import { plainT } from './plain';
import { useUiLanguage } from './ui-language.test-support';

describe('plain text in Chinese', () => {
  useUiLanguage('zh-CN');

  it('types the gap at the template’s boundaries and a value’s edges', () => {
    expect(plainT('app.transportHint.http')).toBe('已连接本地 Folio 服务');
    expect(plainT('layout.live.approvals', { count: 2 })).toBe('Folio 正在等待 2 项批准');
    expect(plainT('citation.open', { file: 'x.pdf', page: 3 })).toBe('在第 3 页打开 x.pdf');
    expect(plainT('composer.detach', { name: 'report.docx' })).toBe('从本条消息中移除 report.docx');
  });

  it('leaves a path or name with Chinese in it whole', () => {
    expect(plainT('citation.open', { file: '第3章.md', page: 12 })).toBe('在第 12 页打开第3章.md');
    expect(plainT('files.downloadNamed', { name: 'work/数据.csv' })).toBe('下载 work/数据.csv');
    expect(plainT('library.deleteNamed', { name: '数据v2.csv' })).toBe('删除数据v2.csv');
  });

  it('a component’s tooltip gets the gap; the text it draws leaves it to the layout', () => {
    useApp.setState({ profiles: [] });
    const run: Run = { id: 'r1', task_id: 't1', status: 'done', model: null, started_at: 1_000, finished_at: 4_000, error: null, prompt_tokens: 120, completion_tokens: 30, cost: 0, tool_calls: {} };
    const html = renderToStaticMarkup(<RunFooter run={run} />);
    expect(html).toContain('title="输入 120 词元，输出 30 词元"');
    expect(html).toContain('>输入120 · 输出30<');
  });
});
