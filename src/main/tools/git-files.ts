// Git is code: it runs the hooks in `.git/hooks`, the programs its configuration names
// (core.fsmonitor, core.hooksPath, aliases, filters named in info/attributes ...), and does so on
// the person's machine, outside any sandbox, the next time they use git there. A write anywhere
// under `.git/` therefore asks in every approval mode, and the card says why.
import type { ApprovalReason } from '../../shared/contract';
import type { ToolRisk } from './types';

/** Whether a task-relative path lies in a `.git` folder (any depth, any case: macOS folders ignore it). */
export function isInGitFolder(rel: string): boolean {
  return rel.split(/[\\/]/u).some((part) => part.toLowerCase() === '.git');
}

/** The risk of writing `rel`: destructive with the git reason inside `.git/`, otherwise null. */
export function gitWriteRisk(rel: string, detail: string | null): ToolRisk | null {
  if (!isInGitFolder(rel)) return null;
  const reasons: ApprovalReason[] = [{ code: 'git_code', subject: rel }];
  return { risk: 'destructive', detail, reasons };
}
