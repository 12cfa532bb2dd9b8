// What in a project's git configuration runs programs. Git runs these on the person's machine,
// outside any sandbox, whenever they (or their editor) use git in the folder: a hooks folder, an
// fsmonitor, an ssh command, a pager, diff and merge drivers, clean/smudge filters, `!` aliases,
// and include paths that pull in more of the same. A coding task reports each one present in the
// repository's own configuration, so a key the agent (or anyone) planted does not go unnoticed.
import fs from 'node:fs';
import path from 'node:path';

export interface GitConfigFinding {
  /** The key as git names it: `core.fsmonitor`, `filter.lfs.smudge`, `alias.st`. */
  key: string;
  value: string;
}

/** Keys (lower case, `*` for a subsection) whose value git runs, or which load more configuration. */
const RUNS_CODE: readonly string[] = [
  'core.hookspath',
  'core.fsmonitor',
  'core.sshcommand',
  'core.pager',
  'core.editor',
  'core.askpass',
  'core.gitproxy',
  'sequence.editor',
  'diff.external',
  'diff.*.command',
  'diff.*.textconv',
  'difftool.*.cmd',
  'merge.*.driver',
  'mergetool.*.cmd',
  'filter.*.clean',
  'filter.*.smudge',
  'filter.*.process',
  'include.path',
  'includeif.*.path',
  'credential.helper',
  'credential.*.helper',
  'gpg.program',
  'gpg.*.program',
  'pager.*',
  'remote.*.uploadpack',
  'remote.*.receivepack',
  'uploadpack.packobjectshook',
  'web.browser',
  'browser.*.cmd',
  'man.*.cmd',
  'interactive.difffilter',
];

/** `core.fsmonitor = true/false` is git's own daemon, not a program. */
const BOOLEAN_OK = new Set(['core.fsmonitor']);
const BOOLEANS = new Set(['true', 'false', 'yes', 'no', 'on', 'off', '1', '0', '']);

function unquote(raw: string): string {
  let value = raw.trim();
  // An unquoted ; or # starts a comment.
  let out = '';
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const ch = value[i];
    if (ch === '"') quoted = !quoted;
    else if (ch === '\\' && i + 1 < value.length) out += value[++i];
    else if (!quoted && (ch === ';' || ch === '#')) break;
    else out += ch;
  }
  value = out.trim();
  return value;
}

/** The `key = value` pairs of a git config file (sections, `[section "sub"]`, `[section.sub]`). */
export function parseGitConfig(text: string): GitConfigFinding[] {
  const out: GitConfigFinding[] = [];
  let section = '';
  for (const raw of text.split(/\r?\n/u)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\](.*)$/u.exec(line);
    if (header) {
      const [name, ...dotted] = header[1].split('.');
      const sub = header[2] !== undefined ? header[2].replace(/\\(.)/gu, '$1') : dotted.join('.');
      section = sub ? `${name.toLowerCase()}.${sub}` : name.toLowerCase();
      const rest = header[3].trim();
      if (rest === '' || rest.startsWith('#') || rest.startsWith(';')) continue;
      // `[core] fsmonitor = x` on one line: git accepts it.
      const inline = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=(.*))?$/u.exec(rest);
      if (inline) out.push({ key: `${section}.${inline[1]}`, value: inline[2] === undefined ? 'true' : unquote(inline[2]) });
      continue;
    }
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=(.*))?$/u.exec(line);
    if (entry && section) out.push({ key: `${section}.${entry[1]}`, value: entry[2] === undefined ? 'true' : unquote(entry[2]) });
  }
  return out;
}

/** Whether git would run (or load) something named by this key and value. */
export function runsCode(finding: GitConfigFinding): boolean {
  const parts = finding.key.split('.');
  const section = parts[0].toLowerCase();
  const variable = parts[parts.length - 1].toLowerCase();
  if (section === 'alias') return finding.value.trimStart().startsWith('!');
  const hit = parts.length > 2 ? RUNS_CODE.includes(`${section}.*.${variable}`) : RUNS_CODE.includes(`${section}.${variable}`) || RUNS_CODE.includes(`${section}.*`);
  if (!hit) return false;
  return !(BOOLEAN_OK.has(`${section}.${variable}`) && BOOLEANS.has(finding.value.toLowerCase()));
}

/** The repository's git folder: `.git`, or where a `.git` file (worktrees, submodules) points. */
function gitDir(repo: string): string | null {
  const dotGit = path.join(repo, '.git');
  let stat: fs.Stats;
  try {
    stat = fs.statSync(dotGit);
  } catch {
    return null;
  }
  if (stat.isDirectory()) return dotGit;
  if (!stat.isFile() || stat.size > 4096) return null;
  const pointer = /^gitdir:\s*(.+)$/mu.exec(fs.readFileSync(dotGit, 'utf8'));
  return pointer ? path.resolve(repo, pointer[1].trim()) : null;
}

function readSmall(file: string): string | null {
  try {
    const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
    try {
      const stat = fs.fstatSync(fd);
      if (!stat.isFile() || stat.size > 1024 * 1024) return null;
      return fs.readFileSync(fd, 'utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return null;
  }
}

const SAMPLE = /\.sample$/u;

/**
 * What in `repo`'s own git configuration runs programs: the command-running keys of `.git/config`
 * (and of a `config.worktree` beside it), and the hooks in `.git/hooks` that git would run (not the
 * `.sample` files git installs). Empty when the folder is not a repository.
 */
export function gitConfigRisks(repo: string): GitConfigFinding[] {
  const dir = gitDir(repo);
  if (dir === null) return [];
  const found: GitConfigFinding[] = [];
  for (const name of ['config', 'config.worktree']) {
    const text = readSmall(path.join(dir, name));
    if (text !== null) found.push(...parseGitConfig(text).filter(runsCode));
  }
  let hooks: string[] = [];
  try {
    hooks = fs.readdirSync(path.join(dir, 'hooks'), { withFileTypes: true }).filter((e) => !e.isDirectory() && !SAMPLE.test(e.name)).map((e) => e.name);
  } catch {
    hooks = [];
  }
  for (const hook of hooks.sort()) found.push({ key: 'hook', value: hook });
  return found;
}

/** A stable text of findings, to tell whether they changed since last reported. */
export function findingsKey(findings: readonly GitConfigFinding[]): string {
  return findings.map((f) => `${f.key}\u0000${f.value}`).join('\u0001');
}
