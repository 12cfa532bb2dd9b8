// A tool card rendered to HTML (no DOM needed): a skill's sub-agent steps, and a
// finished call's output, collapsed until expanded, with what was expanded kept across re-mounts.
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { latinSentences } from '../../shared/latin-text.test-support';
import { useUiLanguage } from '../i18n/ui-language.test-support';
import { DENIED_RESULT } from '../../shared/tool-outcome';
import { applyLanguageSetting } from '../i18n';
import { toolCardKey, toolCards } from '../state/tool-card-store';
import type { ToolResultSummary } from '../state/live-run';
import { PREVIEW_CHARS, ToolCard } from './ToolCard';

describe('ToolCard with nested steps', () => {
  useUiLanguage();

  it('lists the steps collapsed, each at its level, with the count of nested calls', () => {
    const html = renderToStaticMarkup(
      <ToolCard
        taskId="t"
        callId="c1"
        name="skill_contract-review"
        arguments="{}"
        result={null}
        nested={[
          { kind: 'tool', parent: 'c1', depth: 1, callId: 'c1/a', name: 'skill_analyze', arguments: '{"file":"source/x.pdf"}', result: { preview: 'ok', truncated: false, isError: false, fullLength: 2 } },
          { kind: 'text', parent: 'c1/a', depth: 2, text: 'Risk on p. 3' },
          { kind: 'tool', parent: 'c1', depth: 1, callId: 'c1/b', name: 'skill_compare', arguments: '{}', result: null },
        ]}
      />,
    );
    // The summary's text comes from the English strings (no literal here, for the JSX scan).
    expect(html).toContain('<details class="tool-nested" data-testid="tool-nested"><summary>');
    expect(html).toMatch(/<summary>[^<]*2[^<]*<\/summary>/u);
    expect(html).not.toContain('<details class="tool-nested" data-testid="tool-nested" open');
    expect(html.match(/data-depth="1"/gu)).toHaveLength(2);
    expect(html).toMatch(/margin-inline-start:16px[^>]*data-depth="2"><span>Risk on p\. 3/u);
    expect(html).toContain('source/x.pdf');
  });

  it('shows no nested section for an ordinary tool', () => {
    const html = renderToStaticMarkup(<ToolCard taskId="t" callId="c1" name="read" arguments="{}" result={null} />);
    expect(html).not.toContain('tool-nested');
  });
});

describe('ToolCard output', () => {
  const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1} 长对话`).join('\n');
  const summary = (text: string, fullLength = text.length, isError = false) => ({
    preview: text.slice(0, PREVIEW_CHARS),
    truncated: fullLength > PREVIEW_CHARS,
    isError,
    fullLength,
  });
  const render = (result: ReturnType<typeof summary>, callId = 'call_1') =>
    renderToStaticMarkup(<ToolCard taskId="t1" callId={callId} name="read" arguments='{"path":"a.txt"}' result={result} />);
  const output = (html: string) => /<pre[^>]*data-testid="tool-result"[^>]*>([\s\S]*?)<\/pre>/u.exec(html)?.[1] ?? '';

  useUiLanguage();
  beforeEach(() => {
    toolCards.setState({ outputExpanded: new Set(), argsShown: new Set(), rawShown: new Set(), full: new Map() });
  });

  it('shows a long output collapsed to its first lines, behind a button that names its size', () => {
    const html = render(summary(lines(40)));
    expect(output(html)).toContain('line 6 长对话');
    expect(output(html)).not.toContain('line 7');
    expect(html).toContain('data-collapsed="true"');
    const button = /<button[^>]*data-testid="tool-expand"[^>]*>/u.exec(html)?.[0] ?? '';
    expect(button).toContain('aria-expanded="false"');
    const controls = /aria-controls="([^"]+)"/u.exec(button)?.[1];
    expect(controls).toBeTruthy();
    expect(html).toContain(`<pre id="${controls}"`);
    expect(html).toMatch(/Show more \([\d.]+ (B|KB)\)/u);
    expect(html).not.toContain('tool-show-full');
  });

  it('shows a short output whole, with nothing to expand', () => {
    const html = render(summary('Rendered artifacts/deck.pptx'));
    expect(output(html)).toBe('Rendered artifacts/deck.pptx');
    expect(html).not.toContain('tool-expand');
    expect(html).not.toContain('data-collapsed');
  });

  it('shows more lines of an error', () => {
    const html = render(summary(lines(40), 40, true));
    expect(output(html)).toContain('line 12 长对话');
    expect(output(html)).not.toContain('line 13');
  });

  it('keeps a card expanded in the store, so a re-mounted row shows the stored preview and offers the full result', () => {
    const text = lines(200);
    toolCards.getState().setOpen(toolCardKey('t1', 'call_1'), 'output', true);
    // A fresh render is what a row the virtual list mounts again gets: no state of its own.
    const html = render(summary(text));
    expect(output(html)).toContain(text.slice(PREVIEW_CHARS - 40, PREVIEW_CHARS));
    expect(html).toContain('aria-expanded="true"');
    expect(html).toContain('Show less');
    expect(html).toContain('data-testid="tool-show-full"');
    // Another call of the same task, and the same call id in another task, stay collapsed.
    expect(render(summary(text), 'call_2')).toContain('data-collapsed="true"');
    expect(renderToStaticMarkup(<ToolCard taskId="t2" callId="call_1" name="read" arguments="{}" result={summary(text)} />)).toContain('data-collapsed="true"');
  });

  it('shows a fetched full result when expanded and the short preview again when collapsed', () => {
    const text = `${lines(200)}\nTHE END`;
    const key = toolCardKey('t1', 'call_1');
    toolCards.getState().setFull(key, text);
    toolCards.getState().setOpen(key, 'output', true);
    const expanded = render(summary(text));
    expect(output(expanded)).toContain('THE END');
    expect(expanded).not.toContain('tool-show-full');
    toolCards.getState().setOpen(key, 'output', false);
    const collapsed = render(summary(text));
    expect(output(collapsed)).not.toContain('line 7');
    expect(collapsed).toContain('aria-expanded="false"');
  });

  it('says what the call did in the UI language, with the output the model read behind a toggle on an English screen', () => {
    const denied = { preview: DENIED_RESULT, truncated: false, isError: true, fullLength: DENIED_RESULT.length };
    const card = () => renderToStaticMarkup(<ToolCard taskId="t1" callId="d1" name="shell" arguments='{"command":"curl https://example.com"}' result={denied} />);
    const closed = card();
    expect(closed).toMatch(/<button[^>]*aria-expanded="false"[^>]*data-testid="tool-raw-toggle"/u);
    expect(closed).toMatch(/<div [^>]*hidden=""[^>]*data-testid="tool-raw"/u);
    toolCards.getState().setOpen(toolCardKey('t1', 'd1'), 'raw', true);
    const open = card();
    expect(open).toMatch(/<button[^>]*aria-expanded="true"[^>]*data-testid="tool-raw-toggle"/u);
    expect(open).not.toMatch(/hidden=""[^>]*data-testid="tool-raw"/u);
    expect(output(open)).toContain(DENIED_RESULT);
  });

  describe('on a Chinese screen', () => {
    beforeAll(() => applyLanguageSetting('zh-CN'));
    afterAll(() => applyLanguageSetting('en'));

    it('shows no text written for the model, opened or not: it can only be copied', () => {
      const failed = { preview: 'work/deck.json already exists: artifacts are never overwritten; write under a new name.', truncated: false, isError: true, fullLength: 80 };
      const card = () => renderToStaticMarkup(<ToolCard taskId="t1" callId="w1" name="write" arguments='{"path":"work/deck.json"}' result={failed} />);
      expect(card()).toMatch(/data-testid="tool-summary">[^<]*[\u4e00-\u9fff]/u);
      toolCards.getState().setOpen(toolCardKey('t1', 'w1'), 'raw', true);
      toolCards.getState().setOpen(toolCardKey('t1', 'w1'), 'args', false);
      const html = card();
      expect(latinSentences(html)).toEqual([]);
      expect(html).not.toContain('data-testid="tool-result"');
      expect(html).toContain('data-testid="copy-original"');
    });

    it('says what a successful call did, with nothing to open or copy', () => {
      const wrote = { preview: 'Wrote 120 bytes to work/notes.md.', truncated: false, isError: false, fullLength: 33 };
      const html = renderToStaticMarkup(<ToolCard taskId="t1" callId="w2" name="write" arguments='{"path":"work/notes.md"}' result={wrote} />);
      expect(html).toMatch(/data-testid="tool-summary">已写入work\/notes\.md。</u);
      expect(html).not.toContain('data-testid="tool-raw-toggle"');
      expect(html).not.toContain('data-testid="copy-original"');
      expect(latinSentences(html)).toEqual([]);
    });

    it('says a denied call was denied, with nothing to open', () => {
      const denied = { preview: DENIED_RESULT, truncated: false, isError: true, fullLength: DENIED_RESULT.length };
      const html = renderToStaticMarkup(<ToolCard taskId="t1" callId="d2" name="shell" arguments='{"command":"curl https://example.com"}' result={denied} />);
      expect(html).toMatch(/data-testid="tool-summary">你拒绝了这次调用，它没有运行。</u);
      expect(html).not.toContain('data-testid="tool-raw-toggle"');
      expect(html).not.toContain('data-testid="copy-original"');
      expect(latinSentences(html)).toEqual([]);
    });

    it("shows a command's own output behind “显示输出”, without the lines Folio adds for the model", () => {
      const ran = { preview: '共 3 个文件\n[The network is off for commands in this task.]\n[exit code 0 · 0.2 s]', truncated: false, isError: false, fullLength: 70 };
      toolCards.getState().setOpen(toolCardKey('t1', 's1'), 'raw', true);
      const html = renderToStaticMarkup(<ToolCard taskId="t1" callId="s1" name="shell" arguments='{"command":"ls"}' result={ran} />);
      expect(html).toMatch(/data-testid="tool-raw-toggle">.*显示输出|data-testid="tool-raw-toggle">.*隐藏输出/u);
      expect(output(html)).toBe('共 3 个文件');
      expect(latinSentences(html)).toEqual([]);
    });

    it('names why a call failed, in Chinese: the missing file, the exit code, the time limit', () => {
      const failed = (preview: string, facts: NonNullable<ToolResultSummary['facts']>) => ({ preview, truncated: false, isError: true, fullLength: preview.length, facts });
      const summaryOf = (html: string) => /data-testid="tool-summary">([^<]*)</u.exec(html)?.[1];
      const missing = renderToStaticMarkup(
        <ToolCard taskId="t1" callId="f1" name="read" arguments='{"path":"work/x.md"}' result={failed('File not found: work/x.md', { failure: { kind: 'not_found', path: 'work/x.md' } })} state="failed" />,
      );
      expect(summaryOf(missing)).toBe('找不到work/x.md。');
      expect(latinSentences(missing)).toEqual([]);
      const exited = renderToStaticMarkup(
        <ToolCard taskId="t1" callId="f2" name="run_python" arguments='{"code":"raise SystemExit(2)"}' result={failed('[exit code 2 · 0.1 s]', { failure: { kind: 'exit_code', code: 2 }, program: { output_chars: 0 } })} state="failed" />,
      );
      expect(summaryOf(exited)).toBe('程序以代码2退出。');
      const slow = renderToStaticMarkup(
        <ToolCard taskId="t1" callId="f3" name="web_fetch" arguments='{"url":"https://example.org"}' result={failed('Timed out after 20 s fetching https://example.org/.', { failure: { kind: 'timed_out', seconds: 20 } })} state="failed" />,
      );
      expect(summaryOf(slow)).toBe('超过20秒的时限，已停止。');
      const refused = renderToStaticMarkup(
        <ToolCard taskId="t1" callId="f4" name="read" arguments='{"path":"../x"}' result={failed('../x leaves the task folder', { failure: { kind: 'outside_task' } })} state="failed" />,
      );
      expect(summaryOf(refused)).toBe('已拒绝：路径指向任务文件夹之外。');
    });

    it("shows a long output's head and tail with Folio's note between them in Chinese, and the network fact as a line of the card", () => {
      const head = 'row 1\n';
      const note = '[... 81920 bytes of output omitted; output is capped at 100 KB ...]';
      const text = `${head}\n${note}\n\nrow 9000\n`;
      const preview = `${text}[The network is off for commands in this task.]\n[exit code 0 · 3.0 s]`;
      const from = text.indexOf(note);
      const ran = { preview, truncated: false, isError: false, fullLength: preview.length, facts: { program: { output_chars: text.length, omitted: { from, to: from + note.length, bytes: 81920 }, network_off: true } } };
      toolCards.getState().setOpen(toolCardKey('t1', 's2'), 'raw', true);
      toolCards.getState().setOpen(toolCardKey('t1', 's2'), 'output', true);
      const html = renderToStaticMarkup(<ToolCard taskId="t1" callId="s2" name="shell" arguments='{"command":"seq 9000"}' result={ran} state="done" />);
      expect(output(html)).toContain('row 1');
      expect(output(html)).toContain('此处省略了80 KB的输出');
      expect(output(html)).toContain('row 9000');
      expect(output(html)).not.toContain('omitted');
      expect(html).toContain('data-testid="tool-fact-network-off"');
      expect(latinSentences(html)).toEqual([]);
    });
  });

  it('keeps the arguments shown across a re-mount', () => {
    expect(render(summary('ok'))).not.toContain('tool-args');
    toolCards.getState().setOpen(toolCardKey('t1', 'call_1'), 'args', true);
    expect(render(summary('ok'))).toContain('class="tool-args"');
  });
});

describe('ToolCard state', () => {
  useUiLanguage();
  const stateOf = (html: string) => /class="tool-card tool-([a-z-]+)"/u.exec(html)?.[1];

  it('shows the persisted state: a call awaiting approval after a restart waits, not runs', () => {
    expect(stateOf(renderToStaticMarkup(<ToolCard taskId="t" callId="c1" name="shell" arguments="{}" result={null} state="awaiting_approval" />))).toBe('approval');
    expect(stateOf(renderToStaticMarkup(<ToolCard taskId="t" callId="c1" name="shell" arguments="{}" result={null} state="executing" />))).toBe('running');
  });

  it('a denied call shows denied, not failed, whatever its result says (a blocked command too)', () => {
    const blocked = { preview: 'Blocked: deletes the root. This command is never run; choose a safer way.', truncated: false, isError: true, fullLength: 70 };
    expect(stateOf(renderToStaticMarkup(<ToolCard taskId="t" callId="c1" name="shell" arguments="{}" result={blocked} state="denied" />))).toBe('denied');
    expect(stateOf(renderToStaticMarkup(<ToolCard taskId="t" callId="c1" name="shell" arguments="{}" result={{ ...blocked, state: 'denied' }} />))).toBe('denied');
    expect(stateOf(renderToStaticMarkup(<ToolCard taskId="t" callId="c1" name="shell" arguments="{}" result={blocked} state="failed" />))).toBe('error');
    const notRun = { preview: 'Cancelled before this tool ran.', truncated: false, isError: true, fullLength: 31 };
    expect(stateOf(renderToStaticMarkup(<ToolCard taskId="t" callId="c1" name="shell" arguments="{}" result={notRun} state="cancelled" />))).toBe('not-run');
  });
});
