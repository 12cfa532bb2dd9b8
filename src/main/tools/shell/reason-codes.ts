// The classifier's reasons (English sentences, also told to the model) sorted into the few kinds a
// person is shown in their own language on the approval card. One table beside the rules' wording:
// a reason no pattern knows is shown as `unchecked`, never as nothing.
import type { ApprovalReason } from '../../../shared/contract';

const PATTERNS: [RegExp, ApprovalReason['code']][] = [
  [/\bgit's hooks or configuration\b/u, 'git_code'],
  [/\bdelet|\bdiscards?\b|\brewrites or deletes\b/u, 'deletes'],
  [/outside the (task|working) folder|into a home folder|the device /u, 'outside_folder'],
  [/\boverwrites\b|\bwrites (to|through|raw)\b|\bmoves or renames\b|\bedits files in place\b|\bpermissions or ownership\b|\bwrites configuration\b|\bsets configuration\b/u, 'overwrites'],
  [/\bruns\b|\bnames a program\b|\bbackground job\b|\bcommand name\b|\breads a configuration that can run\b/u, 'runs_code'],
];

export function reasonCodes(reasons: readonly string[]): ApprovalReason[] {
  const out: ApprovalReason[] = [];
  for (const reason of reasons) {
    const code = PATTERNS.find(([pattern]) => pattern.test(reason))?.[1] ?? 'unchecked';
    if (!out.some((r) => r.code === code)) out.push({ code, subject: null });
  }
  return out;
}
