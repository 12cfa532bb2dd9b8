// ---- skill-agent (issue 15) ----
// A skill's sub-agent steps in its tool card, rendered to HTML (no DOM needed).
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../i18n';
import { ToolCard } from './ToolCard';

describe('ToolCard with nested steps', () => {
  beforeAll(async () => {
    await initI18n();
  });

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
