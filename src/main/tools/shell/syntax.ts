// A typed window onto mvdan/sh's syntax tree (the GopherJS build, `mvdan-sh`). sh-syntax, the wasm
// build, only exposes top-level statement spans, not the command tree the classifier needs.
import { createRequire } from 'node:module';
import type ShModule from 'mvdan-sh';

export type ShNode = Record<string, unknown>;

let sh: typeof ShModule | undefined;

/**
 * mvdan-sh is loaded at the first command, not at start-up: the GopherJS build takes hundreds of
 * milliseconds to import and parsing is synchronous, so it is required (CommonJS) on first use.
 */
export function shSyntax(): typeof ShModule.syntax {
  sh ??= createRequire(import.meta.url)('mvdan-sh') as typeof ShModule;
  return sh.syntax;
}

export class ShellParseError extends Error {}

/** Parses bash source into a File node; throws ShellParseError with mvdan/sh's message. */
export function parseShell(source: string): ShNode {
  try {
    const file = shSyntax().NewParser().Parse(source, '');
    if (!isNode(file)) throw new ShellParseError('parser returned no tree');
    return file;
  } catch (err) {
    if (err instanceof ShellParseError) throw err;
    throw new ShellParseError(describeGoError(err));
  }
}

function describeGoError(err: unknown): string {
  if (isNode(err) && typeof err.Error === 'function') {
    const text: unknown = (err.Error as () => unknown)();
    if (typeof text === 'string') return text;
  }
  return err instanceof Error ? err.message : 'unknown parse error';
}

export function isNode(value: unknown): value is ShNode {
  return typeof value === 'object' && value !== null;
}

export function nodeType(node: unknown): string {
  return isNode(node) ? shSyntax().NodeType(node) : '';
}

/** Visits every node under `root`, depth first. */
export function walk(root: unknown, visit: (node: ShNode, type: string) => void): void {
  const syntax = shSyntax();
  syntax.Walk(root, (node) => {
    if (isNode(node)) visit(node, syntax.NodeType(node));
    return true;
  });
}

export function child(node: ShNode, key: string): ShNode | null {
  const value = node[key];
  return isNode(value) ? value : null;
}

export function children(node: ShNode, key: string): ShNode[] {
  const value = node[key];
  return Array.isArray(value) ? value.filter(isNode) : [];
}

export function text(node: ShNode | null, key: string): string {
  const value = node?.[key];
  return typeof value === 'string' ? value : '';
}

function numberField(node: ShNode, key: string): number {
  const value = node[key];
  return typeof value === 'number' ? value : -1;
}

/**
 * Operator numbers are Go enum values that differ between mvdan/sh releases, so they are learnt
 * from the parser itself rather than hard-coded; at the first use, since that loads the parser.
 */
function learnOperators(samples: Record<string, string>, pick: (stmt: ShNode) => ShNode | null): Map<number, string> {
  const map = new Map<number, string>();
  for (const [op, source] of Object.entries(samples)) {
    const stmt = children(parseShell(source), 'Stmts')[0];
    const node = stmt ? pick(stmt) : null;
    if (node) map.set(numberField(node, 'Op'), op);
  }
  return map;
}

const learnRedirectOps = () =>
  learnOperators(
    {
      '>': 'a > b',
      '>>': 'a >> b',
      '<': 'a < b',
      '<>': 'a <> b',
      '<&': 'a <&3',
      '>&': 'a >&2',
      '>|': 'a >| b',
      '<<': 'a <<X\nX\n',
      '<<-': 'a <<-X\nX\n',
      '<<<': 'a <<< b',
      '&>': 'a &> b',
      '&>>': 'a &>> b',
    },
    (stmt) => children(stmt, 'Redirs')[0] ?? null,
  );
let redirectOps: Map<number, string> | undefined;

const learnBinaryOps = () => learnOperators({ '&&': 'a && b', '||': 'a || b', '|': 'a | b', '|&': 'a |& b' }, (stmt) => child(stmt, 'Cmd'));
let binaryOps: Map<number, string> | undefined;

export function redirectOp(redirect: ShNode): string {
  redirectOps ??= learnRedirectOps();
  return redirectOps.get(numberField(redirect, 'Op')) ?? '?';
}

export function binaryOp(cmd: ShNode): string {
  binaryOps ??= learnBinaryOps();
  return binaryOps.get(numberField(cmd, 'Op')) ?? '?';
}

/** A shell word as far as it can be known before running: its text and whether parts of it are computed. */
export interface Arg {
  text: string;
  /** Contains a parameter, command or arithmetic expansion. */
  dynamic: boolean;
  /** Is (or contains) a process substitution <(...) / >(...). */
  procSubst: boolean;
  /** Unquoted glob characters (* ? [) that the shell would expand. */
  glob: boolean;
  /** Unquoted brace expansion ({a,b} or {1..3}); bash expands it, dash does not. */
  braces: boolean;
}

export function wordToArg(word: ShNode | null): Arg {
  const arg: Arg = { text: '', dynamic: false, procSubst: false, glob: false, braces: false };
  if (word) for (const part of children(word, 'Parts')) appendPart(arg, part, false);
  return arg;
}

function appendPart(arg: Arg, part: ShNode, quoted: boolean): void {
  switch (nodeType(part)) {
    case 'Lit': {
      const value = text(part, 'Value');
      if (!quoted) {
        if (/[*?[]/u.test(value)) arg.glob = true;
        if (/\{[^}]*(?:,|\.\.)[^}]*\}/u.test(value)) arg.braces = true;
      }
      arg.text += quoted ? value.replace(/\\([$`"\\\n])/gu, '$1') : value.replace(/\\\n/gu, '').replace(/\\(.)/gsu, '$1');
      break;
    }
    case 'SglQuoted': {
      const value = text(part, 'Value');
      arg.text += part.Dollar === true ? decodeAnsiC(value) : value;
      break;
    }
    case 'DblQuoted':
      for (const inner of children(part, 'Parts')) appendPart(arg, inner, true);
      break;
    case 'ParamExp': {
      arg.dynamic = true;
      arg.text += `$${text(child(part, 'Param'), 'Value')}`;
      break;
    }
    case 'ProcSubst':
      arg.dynamic = true;
      arg.procSubst = true;
      arg.text += '<(...)';
      break;
    case 'CmdSubst':
      arg.dynamic = true;
      arg.text += '$(...)';
      break;
    case 'ArithmExp':
      arg.dynamic = true;
      arg.text += '$((...))';
      break;
    case 'ExtGlob':
      arg.glob = true;
      arg.text += '*';
      break;
    default:
      arg.dynamic = true;
      arg.text += '?';
  }
}

const simpleEscapes: Record<string, string> = {
  a: '\u0007', b: '\b', e: '\u001b', E: '\u001b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v',
  '\\': '\\', "'": "'", '"': '"', '?': '?',
};

/** Decodes bash's $'...' quoting, so `$'\x72m'` is seen as `rm`. */
export function decodeAnsiC(value: string): string {
  return value.replace(
    /\\(?:x([0-9A-Fa-f]{1,2})|u([0-9A-Fa-f]{1,4})|U([0-9A-Fa-f]{1,8})|([0-7]{1,3})|c(.)|(.))/gsu,
    (whole, hex?: string, u4?: string, u8?: string, oct?: string, ctrl?: string, other?: string) => {
      const code = hex ?? u4 ?? u8;
      if (code !== undefined) return String.fromCodePoint(Math.min(parseInt(code, 16), 0x10ffff));
      if (oct !== undefined) return String.fromCharCode(parseInt(oct, 8) & 0xff);
      if (ctrl !== undefined) return String.fromCharCode(ctrl.charCodeAt(0) & 0x1f);
      return other !== undefined ? (simpleEscapes[other] ?? whole) : whole;
    },
  );
}
