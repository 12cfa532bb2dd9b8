// The person's messages and the tools under a reply, rendered to HTML.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { useUiLanguage } from '../i18n/ui-language.test-support';
import type { Message } from '../../shared/contract';
import { formatSlideRequest } from '../../shared/slide-request';
import { applyLanguageSetting } from '../i18n';
import { ReplyTools, UserMessage } from './BranchControls';

function message(role: Message['role'], content: string): Message {
  return { id: 'm1', task_id: 't1', run_id: 'r1', seq: 1, role, content, reasoning: null, tool_calls: null, tool_call_id: null, is_error: false, name: null, created_at: 1 };
}

const request = formatSlideRequest({ artifact_path: 'artifacts/d.pptx', spec_path: 'work/deck.json', slides: [{ id: 's3', number: 3 }] }, '改成图表');

describe('a change asked from the deck preview', () => {
  useUiLanguage();

  it('shows as a chip and the instruction, never the model-facing wording', async () => {
    await applyLanguageSetting('en');
    const html = renderToStaticMarkup(<UserMessage message={message('user', request)} />);
    expect(html).toContain(`data-testid="slide-chip">${'Slide 3'}</span>`);
    expect(html).toContain('改成图表');
    expect(html).not.toContain('render_deck');
    expect(html).not.toContain('s3');
    // Its slides were chosen in the preview: it is not edited as plain text.
    expect(html).not.toContain('data-testid="edit-message"');
  });

  it('names the slides in Chinese on a Chinese screen', async () => {
    await applyLanguageSetting('zh-CN');
    const html = renderToStaticMarkup(<UserMessage message={message('user', request)} />);
    expect(html).toContain(`data-testid="slide-chip">${'第3页'}</span>`);
    await applyLanguageSetting('en');
  });

  it('leaves an ordinary message as the person wrote it, editable', () => {
    const text = 'Change only slide 3 please';
    const html = renderToStaticMarkup(<UserMessage message={message('user', text)} />);
    expect(html).toContain(`<div class="msg-bubble">${text}</div>`);
    expect(html).toContain('data-testid="edit-message"');
  });
});

describe('reply tools', () => {
  useUiLanguage();

  it('offer to copy a reply that has text, and nothing for an empty one', () => {
    expect(renderToStaticMarkup(<ReplyTools message={message('assistant', 'The answer')} />)).toContain('data-testid="copy-message"');
    expect(renderToStaticMarkup(<ReplyTools message={message('assistant', '')} />)).toBe('');
  });
});
