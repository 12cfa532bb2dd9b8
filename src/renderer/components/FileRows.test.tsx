// A task's sources and a library's files share their row and status badge: each status reads in the
// person's language, waiting is called what it is where the file is (read or queued), indexing is
// drawn as waiting, and an unreadable file's message is announced.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { visibleText } from '../../shared/latin-text.test-support';
import { useUiLanguage } from '../i18n/ui-language.test-support';
import { FileRow, FileStatusBadge } from './FileRows';

const badge = (status: Parameters<typeof FileStatusBadge>[0]['status'], pages: number | null = null) =>
  renderToStaticMarkup(<FileStatusBadge status={status} pages={pages} message={null} pendingLabel="WAITING" scannedHint="SCANNED-HINT" testId="b" />);

describe('file status badge (zh-CN)', () => {
  useUiLanguage('zh-CN');

  it('has no tooltip that says its label again, nor the reader’s English', () => {
    expect(badge('ok', 12)).not.toContain('title=');
    const withMessage = renderToStaticMarkup(<FileStatusBadge status="ok" pages={2} message="2 pages had no text layer" pendingLabel="WAITING" scannedHint="SCANNED-HINT" testId="b" />);
    expect(withMessage).not.toContain('title=');
  });

  it('reads each status in Chinese', () => {
    expect(badge('ok', 12)).toContain('12页');
    expect(badge('error')).toContain('无法读取');
    expect(badge('scanned', 3)).toContain('title="SCANNED-HINT"');
    expect(badge('pending')).toContain('WAITING');
  });

  it('draws indexing as waiting, with a spinner', () => {
    const html = badge('indexing');
    expect(html).toContain('source-status source-pending');
    expect(html).toContain('spinner');
    expect(html).toContain('data-status="indexing"');
  });

  it("announces an unreadable file's message under its row, headed in Chinese", () => {
    const html = renderToStaticMarkup(
      <ul>
        <FileRow testId="file-item" path="source/a.pdf" size={2048} name="a.pdf" action={null} message={{ text: 'bad xref', error: true }} messageTitle="无法读取此文件" />
      </ul>,
    );
    expect(html).toContain('role="alert"');
    expect(html).toContain('<strong>无法读取此文件</strong>');
    expect(html).toContain('2.0 KB');
    expect(visibleText(html)).not.toContain('bad xref');
    expect(html).toContain('data-testid="copy-original"');
  });
});
