// A coding task reports the repository's command-running git settings when the run opens it and
// after a tool call changes them.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FinishReason, RunEventBody } from '../../shared/contract';
import { makeTempRoot, removeTemp } from '../tools/testing';
import { gitConfigNotice, watchGitConfig } from './git-config-watch';

let repo: string;
beforeEach(() => {
  repo = makeTempRoot('folio-git-watch-');
  fs.mkdirSync(path.join(repo, '.git', 'hooks'), { recursive: true });
  fs.writeFileSync(path.join(repo, '.git', 'config'), '[core]\n\trepositoryformatversion = 0\n');
});
afterEach(() => removeTemp(repo));

const result = (callId: string): RunEventBody => ({ type: 'tool_result', call_id: callId, name: 'write', preview: 'ok', truncated: false, is_error: false, full_length: 2, writes_artifacts: false });

async function collect(gen: AsyncGenerator<RunEventBody, FinishReason>): Promise<{ events: RunEventBody[]; reason: FinishReason }> {
  const events: RunEventBody[] = [];
  for (;;) {
    const step = await gen.next();
    if (step.done) return { events, reason: step.value };
    events.push(step.value);
  }
}

describe('git settings that run programs, in a coding task', () => {
  it('says nothing for a plain repository, and names what a planted config runs', () => {
    expect(gitConfigNotice(repo).event).toBeNull();
    fs.appendFileSync(path.join(repo, '.git', 'config'), '\tfsmonitor = "./watch.sh"\n');
    expect(gitConfigNotice(repo).event).toEqual({ type: 'git_config_risk', findings: [{ key: 'core.fsmonitor', value: './watch.sh' }] });
  });

  it('reports after the tool call that planted a key or a hook, once per change', async () => {
    const start = gitConfigNotice(repo);
    async function* loop(): AsyncGenerator<RunEventBody, FinishReason> {
      yield { type: 'text_delta', delta: 'editing' };
      fs.appendFileSync(path.join(repo, '.git', 'config'), '\thooksPath = .githooks\n');
      yield result('c1');
      yield result('c2');
      fs.writeFileSync(path.join(repo, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nid\n');
      yield result('c3');
      return 'done';
    }
    const { events, reason } = await collect(watchGitConfig(loop(), repo, start.key));
    expect(reason).toBe('done');
    expect(events.map((e) => e.type)).toEqual(['text_delta', 'tool_result', 'git_config_risk', 'tool_result', 'tool_result', 'git_config_risk']);
    expect(events[2]).toEqual({ type: 'git_config_risk', findings: [{ key: 'core.hooksPath', value: '.githooks' }] });
    expect(events[5]).toEqual({
      type: 'git_config_risk',
      findings: [
        { key: 'core.hooksPath', value: '.githooks' },
        { key: 'hook', value: 'pre-commit' },
      ],
    });
  });

  it('ends the wrapped loop when the run stops early', async () => {
    let finished = false;
    async function* loop(): AsyncGenerator<RunEventBody, FinishReason> {
      try {
        yield result('c1');
        yield result('c2');
        return 'done';
      } finally {
        finished = true;
      }
    }
    const gen = watchGitConfig(loop(), repo, gitConfigNotice(repo).key);
    await gen.next();
    await gen.return('cancelled');
    expect(finished).toBe(true);
  });
});
