import { beforeEach, describe, expect, it } from 'vitest';
import type { BranchPoint, FolioClient, Message } from '../../shared/contract';
import type { FolioApi } from '../api/folio-api';
import { setApi } from './api';
import { regenerableReply, useBranches } from './branches-store';
import { useChat } from './chat-store';

function msg(id: string, role: Message['role'], seq: number): Message {
  return { id, task_id: 't1', run_id: 'r1', seq, role, content: id, reasoning: null, tool_calls: null, tool_call_id: null, is_error: false, name: null, created_at: seq };
}

const calls: string[] = [];
let branches: BranchPoint[] = [];
let page: Message[] = [];

function installApi(): void {
  const client = {
    listBranches: async () => ({ branches }),
    switchBranch: async (input: { message_id: string }) => {
      calls.push(`switch:${input.message_id}`);
      return { ok: true };
    },
    getTask: async () => ({ id: 't1', last_run: null }),
    listMessages: async () => ({ messages: page, has_more: false }),
    editMessage: async (input: { message_id: string; text: string }) => {
      calls.push(`edit:${input.message_id}:${input.text}`);
      return { run_id: 'r2' };
    },
    listRuns: async () => ({ runs: [] }),
    listApprovals: async () => ({ approvals: [] }),
  } as unknown as FolioClient;
  const api: FolioApi = {
    kind: 'http',
    client,
    subscribeRun: () => () => undefined,
    addFiles: async () => [],
    addLibraryFiles: async () => [],
    importTemplate: async () => {
      throw new Error('not used here');
    },
    downloadFile: async () => new Blob(),
    downloadLibraryFile: async () => new Blob(),
  };
  setApi(api);
}

describe('regenerableReply', () => {
  it('is the last assistant message when no message of the person follows it', () => {
    expect(regenerableReply([msg('u1', 'user', 1), msg('a1', 'assistant', 2), msg('t1', 'tool', 3)])).toBe('a1');
    expect(regenerableReply([msg('u1', 'user', 1), msg('a1', 'assistant', 2), msg('a2', 'assistant', 3)])).toBe('a2');
    expect(regenerableReply([msg('u1', 'user', 1), msg('a1', 'assistant', 2), msg('u2', 'user', 3)])).toBeNull();
    expect(regenerableReply([])).toBeNull();
  });
});

describe('branches store', () => {
  beforeEach(() => {
    calls.length = 0;
    branches = [];
    page = [];
    installApi();
    useChat.setState({ taskId: 't1' });
    useBranches.setState({ taskId: null, points: {}, editing: null, switching: false });
  });

  it('indexes the forks by the message that shows the switcher, and forgets them for another task', async () => {
    branches = [{ message_id: 'a2', index: 2, count: 2, siblings: ['a1', 'a2'] }];
    await useBranches.getState().load('t1');
    expect(useBranches.getState().points).toEqual({ a2: branches[0] });
    useBranches.getState().startEdit('u1');
    useChat.setState({ taskId: 't2' });
    branches = [];
    await useBranches.getState().load('t2');
    expect(useBranches.getState()).toMatchObject({ taskId: 't2', points: {}, editing: null });
  });

  it('switching asks the service, closes an open editor and reads the conversation again', async () => {
    useBranches.getState().startEdit('u1');
    branches = [{ message_id: 'a1', index: 1, count: 2, siblings: ['a1', 'a2'] }];
    await useBranches.getState().switchTo('a1');
    expect(calls).toEqual(['switch:a1']);
    expect(useBranches.getState()).toMatchObject({ editing: null, switching: false });
    // The chat reload brought the new fork positions in.
    await new Promise((r) => setTimeout(r, 0));
    expect(useBranches.getState().points.a1).toMatchObject({ index: 1 });
  });

  it('editing the first message drops the replaced branch from the view, though its seqs are older', async () => {
    useChat.setState({ taskId: 't1', messages: [msg('u1', 'user', 1), msg('a1', 'assistant', 2)], live: null });
    useBranches.getState().startEdit('u1');
    page = [{ ...msg('u1b', 'user', 3), content: 'better' }];
    expect(await useBranches.getState().saveEdit('u1', 'better')).toBe(true);
    expect(calls).toEqual(['edit:u1:better']);
    expect(useChat.getState().messages.map((m) => m.id)).toEqual(['u1b']);
    expect(useBranches.getState().editing).toBeNull();
  });
});
