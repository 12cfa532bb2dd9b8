// In a coding task, what in the repository's git configuration runs programs is reported to the
// person: once when the run opens the folder, and again whenever a tool call changes it (a write to
// .git/config, a command that adds a hook). Git runs these outside the sandbox the next time the
// person uses git there, so a key the agent planted must not go unnoticed even in auto mode.
import type { FinishReason, RunEventBody } from '../../shared/contract';
import { findingsKey, gitConfigRisks, type GitConfigFinding } from '../workspace/git-config';

/** Values are shown, cut: a notice, not a config viewer. */
const MAX_VALUE_CHARS = 160;

function shown(findings: readonly GitConfigFinding[]): GitConfigFinding[] {
  return findings.map((f) => ({ key: f.key, value: f.value.length > MAX_VALUE_CHARS ? `${f.value.slice(0, MAX_VALUE_CHARS)}…` : f.value }));
}

/** The notice for `repo` as it is now, or null when nothing in its git configuration runs programs. */
export function gitConfigNotice(repo: string): { key: string; event: RunEventBody | null } {
  const findings = gitConfigRisks(repo);
  return { key: findingsKey(findings), event: findings.length > 0 ? { type: 'git_config_risk', findings: shown(findings) } : null };
}

/**
 * Passes the loop's events through and, after each tool result, reports the repository's
 * command-running git settings again if they changed since `reported` (the key of what was last
 * said). Removals are not reported; a new or changed key or hook is.
 */
export async function* watchGitConfig(loop: AsyncGenerator<RunEventBody, FinishReason>, repo: string, reported: string): AsyncGenerator<RunEventBody, FinishReason> {
  let last = reported;
  let done = false;
  try {
    for (;;) {
      const step = await loop.next();
      if (step.done) {
        done = true;
        return step.value;
      }
      yield step.value;
      if (step.value.type !== 'tool_result') continue;
      const now = gitConfigNotice(repo);
      if (now.key !== last && now.event) yield now.event;
      last = now.key;
    }
  } finally {
    if (!done) await loop.return('cancelled');
  }
}
