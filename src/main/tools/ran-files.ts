// The files a granted command or script runs, and their contents' fingerprint. A grant ("allow for
// this task") on `sh work/t.sh` must not cover whatever `work/t.sh` says next: the grant's scope
// carries the hash of every file the command runs (and of the files those import, where the
// language says so statically), so a changed file is a new scope and asks again.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { firstOperand } from './shell/paths';
import { runsScriptFile } from './shell/rules-code';
import { type Arg, children, nodeType, parseShell, walk, wordToArg } from './shell/syntax';
import { commandName, unwrap } from './shell/wrappers';
import { readRegularFileSync, resolveInside } from '../workspace/task-paths';

/** Files hashed per grant at most, and bytes per file: past these the scope names the file, not its contents. */
const MAX_FILES = 32;
const MAX_BYTES = 8 * 1024 * 1024;
const MAKEFILES = ['GNUmakefile', 'makefile', 'Makefile'];

interface Found {
  /** Task-relative paths, in the order found. */
  files: string[];
}

function addFile(root: string, base: string, name: string, found: Found): string | null {
  if (found.files.length >= MAX_FILES || name === '' || name.startsWith('-')) return null;
  let abs: string;
  try {
    abs = resolveInside(root, path.relative(root, path.resolve(base, name)) || '.');
  } catch {
    return null; // outside the task: the classifier rates that; nothing here to bind to
  }
  const rel = path.relative(root, abs).split(path.sep).join('/');
  if (found.files.includes(rel)) return null;
  try {
    readRegularFileSync(abs, rel);
  } catch {
    return null; // not a file (yet): nothing to bind to
  }
  found.files.push(rel);
  return abs;
}

/** Relative modules a JavaScript file imports statically (import … from, import(), require()). */
function jsImports(text: string): string[] {
  const out: string[] = [];
  const re = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"](\.{1,2}\/[^'"\n]+)['"]/gu;
  for (const m of text.matchAll(re)) if (m[1]) out.push(m[1]);
  return out;
}

/** Local modules a Python file imports (`import x`, `from x import y`, `from . import y`). */
function pyImports(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(?:from\s+(\.*[\w.]*)\s+import|import\s+([\w., ]+))/gmu)) {
    const names = m[1] !== undefined ? [m[1]] : (m[2] ?? '').split(',').map((s) => s.trim().split(/\s+/u)[0] ?? '');
    for (const name of names) {
      const mod = name.replace(/^\.+/u, '').split('.').join('/');
      if (mod) out.push(`${mod}.py`, `${mod}/__init__.py`);
    }
  }
  return out;
}

/** Follows a file's own imports (JavaScript, Python) inside the task. */
function followImports(root: string, abs: string, found: Found, depth = 0): void {
  if (depth > 4) return;
  const ext = path.extname(abs).toLowerCase();
  const lister = ['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts'].includes(ext) ? jsImports : ext === '.py' ? pyImports : null;
  if (!lister) return;
  let text: string;
  try {
    text = readRegularFileSync(abs).subarray(0, MAX_BYTES).toString('utf8');
  } catch {
    return;
  }
  const dir = path.dirname(abs);
  for (const spec of lister(text)) {
    const candidates = path.extname(spec) ? [spec] : [spec, `${spec}.js`, `${spec}.mjs`, `${spec}.cjs`, `${spec}/index.js`];
    for (const c of candidates) {
      const next = addFile(root, dir, c, found);
      if (next) followImports(root, next, found, depth + 1);
    }
  }
}

/** The files one simple command runs: a script given to a shell or interpreter, a program by path, make's makefile, npm's package.json and the script it names. */
function filesOfArgv(root: string, cwd: string, argv: Arg[], found: Found, depth: number): void {
  const core = unwrap(argv);
  if (core.kind !== 'argv') return;
  const run = core.argv;
  const program = run[0];
  if (!program) return;
  const name = commandName(run).toLowerCase();
  const args = run.slice(1);
  const add = (file: string) => {
    const abs = addFile(root, cwd, file, found);
    if (abs) followImports(root, abs, found);
  };
  if (program.text.includes('/')) add(program.text);
  if (runsScriptFile(name)) {
    const script = args[firstOperand(args, { short: 'oOWXIrm', long: ['--rcfile', '--init-file', '--require', '--import'] })];
    if (script && !script.dynamic) add(script.text);
  }
  if (name === 'make' || name === 'gmake') {
    const f = args.findIndex((a) => a.text === '-f' || a.text === '--file' || a.text === '--makefile');
    const named = f >= 0 ? args[f + 1]?.text : args.find((a) => /^(?:-f.+|--(?:file|makefile)=)/u.test(a.text))?.text.replace(/^-f|^--(?:file|makefile)=/u, '');
    if (named) add(named);
    else for (const m of MAKEFILES) add(m);
  }
  if (['npm', 'pnpm', 'yarn', 'bun'].includes(name)) {
    const pkg = addFile(root, cwd, 'package.json', found);
    if (pkg && depth < 2) {
      // The script npm runs is a command line of its own: the files it runs count too.
      try {
        const scripts = (JSON.parse(readRegularFileSync(pkg).toString('utf8')) as { scripts?: Record<string, unknown> }).scripts ?? {};
        const sub = args[firstOperand(args)]?.text;
        const scriptName = sub === 'run' || sub === 'run-script' ? args[firstOperand(args) + 1]?.text : sub;
        const line = scriptName ? scripts[scriptName] : undefined;
        if (typeof line === 'string') filesOfSource(root, path.dirname(pkg), line, found, depth + 1);
      } catch {
        // Not JSON: its hash alone binds the grant.
      }
    }
  }
}

function filesOfSource(root: string, cwd: string, source: string, found: Found, depth: number): void {
  let file;
  try {
    file = parseShell(source);
  } catch {
    return;
  }
  walk(file, (node, type) => {
    if (type !== 'CallExpr' || nodeType(node) !== 'CallExpr') return;
    filesOfArgv(root, cwd, children(node, 'Args').map(wordToArg), found, depth);
  });
}

/** The task-relative files a shell command runs, found statically (existing regular files inside root only). */
export function filesRunByCommand(root: string, command: string): string[] {
  const found: Found = { files: [] };
  filesOfSource(root, root, command, found, 0);
  return found.files;
}

/** The task-relative files a script imports, resolved from where it is staged. */
export function filesImportedByScript(root: string, stagedDir: string, code: string): string[] {
  const found: Found = { files: [] };
  for (const spec of jsImports(code)) {
    const abs = addFile(root, path.resolve(root, stagedDir), spec, found);
    if (abs) followImports(root, abs, found);
  }
  return found.files;
}

/** `path=sha256` per file, for a grant scope: the same command over changed files is another scope. */
export function contentFingerprint(root: string, files: readonly string[]): string {
  return files
    .map((rel) => {
      let digest = 'unreadable';
      try {
        const abs = resolveInside(root, rel);
        digest = createHash('sha256').update(readRegularFileSync(abs, rel).subarray(0, MAX_BYTES)).digest('hex');
      } catch {
        digest = 'missing';
      }
      return `${rel}=${digest}`;
    })
    .join('\n');
}
