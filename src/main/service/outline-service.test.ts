// The outline flow through the core, against the project's fake OpenAI-compatible server: the agent
// proposes, the run stops for the person, they edit and approve, and the next request carries the
// approved outline.
import { describe, expect, it } from 'vitest';
import type { FakeOpenAI } from '../../../testing/fake-openai/server';
import { useFakeModelCores } from './fake-model-cores.test-support';
import { collect, waitForEvent } from './core-test-kit';
import { approvalMessage } from './outline-service';

let fake: FakeOpenAI;
const { open } = useFakeModelCores((f) => (fake = f));

const proposal = {
  slides: [
    { title: 'Cities run 2.5 °C hotter', layout: 'title' as const, points: [], sources: [] },
    { title: 'Green space cools most', layout: 'bullets' as const, points: ['+10% cover: -0.8 °C'], sources: [] },
    { title: 'Next: winter data', layout: 'closing' as const, points: [], sources: [] },
  ],
};

function systemOf(request: { body: unknown } | undefined): string {
  const messages = (request?.body as { messages?: { role: string; content: string }[] } | undefined)?.messages ?? [];
  return messages.find((m) => m.role === 'system')?.content ?? '';
}

describe('the deck outline service', () => {
  it('proposal ends the run without asking; the person edits and approves; the next turn follows the approved outline', async () => {
    const core = await open();
    const task = await core.handlers.createTask({ mode: 'ppt' });
    expect(await core.handlers.getOutline({ task_id: task.id })).toEqual({ outline: null, problem: null });

    // Default approval mode is "ask": proposing still runs at once, and the model is not asked again.
    fake.script([{ toolCalls: [{ name: 'propose_outline', arguments: JSON.stringify(proposal) }] }, { text: 'should not be requested' }]);
    const first = await core.handlers.sendMessage({ task_id: task.id, content: 'A 3-slide deck on heat islands' });
    const events = await collect(core, task.id, first.run_id);
    expect(events.some((e) => e.type === 'approval_required')).toBe(false);
    const proposed = events.find((e) => e.type === 'outline_proposed');
    expect(proposed?.type === 'outline_proposed' && proposed.outline.slides.map((s) => s.id)).toEqual(['s1', 's2', 's3']);
    expect(events.at(-1)).toMatchObject({ type: 'run_finished', reason: 'done' });
    expect(fake.requests).toHaveLength(1);

    const got = await core.handlers.getOutline({ task_id: task.id });
    expect(got.outline?.status).toBe('proposed');
    const [s1, s2, s3] = got.outline!.slides;

    // The person swaps two rows, rewrites a title and adds one.
    const edited = [s1, { ...s3 }, { ...s2, title: 'Parks beat fountains' }, { title: 'Questions', layout: 'closing' as const, points: [], sources: [] }];
    const saved = await core.handlers.saveOutline({ task_id: task.id, slides: edited });
    expect(saved.status).toBe('proposed');
    expect(saved.slides.map((s) => s.id)).toEqual(['s1', 's3', 's2', 's4']);

    fake.script([{ text: 'Writing the deck now.' }]);
    const approved = await core.handlers.approveOutline({ task_id: task.id });
    expect(approved.outline).toMatchObject({ status: 'approved', slides: saved.slides });
    expect(approved.outline.approved_at).toEqual(expect.any(Number));
    await collect(core, task.id, approved.run_id);

    const { messages } = await core.handlers.listMessages({ task_id: task.id });
    const userMessages = messages.filter((m) => m.role === 'user').map((m) => m.content);
    expect(userMessages.at(-1)).toBe('Outline approved (4 slides). Write the deck following the approved outline and render it.');
    const system = systemOf(fake.requests.at(-1));
    expect(system).toContain('## Approved deck outline');
    const order = ['[s1] title: Cities run 2.5 °C hotter', '[s3] closing: Next: winter data', '[s2] bullets: Parks beat fountains', '[s4] closing: Questions'];
    const positions = order.map((line) => system.indexOf(line));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(system).toContain('   - +10% cover: -0.8 °C');
    expect((await core.handlers.getOutline({ task_id: task.id })).outline?.status).toBe('approved');
  });

  it('saving an approved outline makes it proposed again; approving needs an outline and no running agent', async () => {
    const core = await open();
    const task = await core.handlers.createTask({ mode: 'ppt' });
    await expect(core.handlers.approveOutline({ task_id: task.id })).rejects.toMatchObject({ code: 'not_found' });

    const saved = await core.handlers.saveOutline({ task_id: task.id, slides: proposal.slides });
    fake.script([{ text: 'ok' }]);
    const approved = await core.handlers.approveOutline({ task_id: task.id, slides: saved.slides });
    await collect(core, task.id, approved.run_id);
    const again = await core.handlers.saveOutline({ task_id: task.id, slides: approved.outline.slides.slice(1) });
    expect(again).toMatchObject({ status: 'proposed', approved_at: null });

    fake.script([{ fault: 'stall' }]);
    const busy = await core.handlers.sendMessage({ task_id: task.id, content: 'one more thing' });
    await expect(core.handlers.approveOutline({ task_id: task.id })).rejects.toMatchObject({ code: 'conflict' });
    await core.handlers.cancelRun({ task_id: task.id, run_id: busy.run_id });
    await core.runs.waitForRun(busy.run_id);
    expect((await core.handlers.getOutline({ task_id: task.id })).outline?.status).toBe('proposed');
  });

  it('the approval message speaks the UI’s language, else the outline’s, never switched by one title', () => {
    const zh = { status: 'approved' as const, approved_at: 1, updated_at: 1, slides: [{ id: 's1', title: '城市热岛', layout: 'title' as const, points: [], sources: [] }] };
    expect(approvalMessage(zh)).toBe('大纲已确认（1 页）。请按确认后的大纲编写幻灯片并生成。');
    expect(approvalMessage({ ...zh, slides: [{ ...zh.slides[0], title: 'Heat' }] })).toMatch(/^Outline approved \(1 slide\)\./u);
    const mostlyEnglish = { ...zh, slides: [{ ...zh.slides[0], title: 'Heat' }, { ...zh.slides[0], id: 's2', title: 'Parks' }, { ...zh.slides[0], id: 's3', title: '北京案例' }] };
    expect(approvalMessage(mostlyEnglish)).toMatch(/^Outline approved \(3 slides\)\./u);
    expect(approvalMessage(mostlyEnglish, 'en')).toMatch(/^Outline approved/u);
    expect(approvalMessage(zh, 'en')).toMatch(/^Outline approved/u);
    expect(approvalMessage(mostlyEnglish, 'zh-CN')).toMatch(/^大纲已确认/u);
  });

  it('approving the outline allows, for this task only, writing under work/ and rendering the deck; revoking asks again', async () => {
    const core = await open();
    const task = await core.handlers.createTask({ mode: 'ppt' });
    const other = await core.handlers.createTask({ mode: 'ppt' });
    await core.handlers.saveOutline({ task_id: task.id, slides: proposal.slides });
    const spec = JSON.stringify({ title: 'Heat', slides: [{ layout: 'title' }, { layout: 'bullets', title: 'A', bullets: ['one'] }] });
    fake.script([
      { toolCalls: [{ id: 'w1', name: 'write', arguments: JSON.stringify({ path: 'work/deck.json', content: spec }) }] },
      { toolCalls: [{ id: 'r1', name: 'render_deck', arguments: JSON.stringify({ spec_path: 'work/deck.json' }) }] },
      { toolCalls: [{ id: 'w2', name: 'write', arguments: JSON.stringify({ path: 'work/../notes.md', content: 'x' }) }] },
    ]);
    const approved = await core.handlers.approveOutline({ task_id: task.id, language: 'en' });
    // The spec and the render run without a question; a write that leaves work/ still asks.
    expect(await waitForEvent(core, task.id, approved.run_id, 'approval_required')).toMatchObject({ call_id: 'w2' });
    await core.handlers.cancelRun({ task_id: task.id, run_id: approved.run_id });
    const events = await collect(core, task.id, approved.run_id);
    const asked = events.filter((e) => e.type === 'approval_required').map((e) => e.type === 'approval_required' && e.call_id);
    expect(asked).toEqual(['w2']);
    // Both ran (the render's own outcome depends on LibreOffice's speed here, not on the grant).
    expect(events.filter((e) => e.type === 'tool_result').map((e) => e.type === 'tool_result' && e.call_id)).toEqual(['w1', 'r1']);
    expect((await core.handlers.listTaskGrants({ task_id: task.id })).grants).toEqual([
      { tool: 'edit', scope: 'work/' },
      { tool: 'render_deck', scope: '' },
      { tool: 'write', scope: 'work/' },
    ]);
    expect((await core.handlers.listTaskGrants({ task_id: other.id })).grants).toEqual([]);

    expect(await core.handlers.revokeTaskGrant({ task_id: task.id, tool: 'write', scope: 'work/' })).toEqual({ revoked: true });
    fake.script([{ toolCalls: [{ id: 'w3', name: 'write', arguments: JSON.stringify({ path: 'work/deck.json', content: spec }) }] }]);
    const next = await core.handlers.sendMessage({ task_id: task.id, content: 'again' });
    const asks = await waitForEvent(core, task.id, next.run_id, 'approval_required');
    expect(asks).toMatchObject({ call_id: 'w3' });
    await core.handlers.cancelRun({ task_id: task.id, run_id: next.run_id });
    await core.runs.waitForRun(next.run_id);
    // The render checks its slides with LibreOffice where installed, which takes a while.
  }, 120_000);
});
