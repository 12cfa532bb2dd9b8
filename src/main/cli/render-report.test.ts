import { describe, expect, it } from 'vitest';
import { cliTranslate } from './cli-messages';
import { documentPagesText } from './render-report';

const zh = { LC_ALL: 'zh_CN.UTF-8' };

describe('what folio render says of a document’s pages', () => {
  it('says pages laid out by LibreOffice, and whether the contents have every page number, in the terminal’s language', async () => {
    const t = await cliTranslate(zh);
    const contents = [
      { level: 1, title: '立项依据', page: 1 },
      { level: 1, title: '研究目标', page: 3 },
    ];
    expect(documentPagesText({ mode: 'rendered', total: 9, body: 7, contents }, 8, t)).toBe('共 9 页（正文 7 页），由 LibreOffice 排版；目录列出了每个标题及其页码。');
    const missing = [...contents, { level: 2, title: '研究内容', page: null }];
    expect(documentPagesText({ mode: 'rendered', total: 9, body: 7, contents: missing }, 8, t)).toBe('共 9 页（正文 7 页），由 LibreOffice 排版；有 1 个标题未在页面上找到（目录中没有页码）。');
    const english = await cliTranslate({ LC_ALL: 'en_US.UTF-8' });
    expect(documentPagesText({ mode: 'rendered', total: 9, body: 7, contents: missing }, 8, english)).toBe('9 pages (7 body), laid out by LibreOffice; 1 heading not found on the pages (no number in the contents).');
    expect(documentPagesText(undefined, 1, english)).toMatch(/^about 1 page \(estimated\)\. Page numbers in the contents appear/u);
  });
});
