// glob: list files in the task folder by pattern.
import { z } from 'zod';
import { PathEscapeError } from '../../shared/errors';
import { resolveInside, rootForPath, taskFolders } from '../workspace/task-paths';
import { ALL_AREAS, type Tool, type ToolTraits } from './types';

const MAX_RESULTS = 500;
export const IGNORED_DIRS = ['node_modules', '.git'];

const parameters = z.object({
  pattern: z.string().min(1).describe('Glob relative to the task folder, e.g. "**/*.md" or "source/*.pdf".'),
});

/** Refuses patterns that could reach outside the root; tinyglobby would happily follow them. */
export function checkPattern(pattern: string): void {
  if (pattern.includes('\0')) throw new PathEscapeError('Pattern contains a NUL byte.');
  if (/^(?:[/\\]|[A-Za-z]:)/u.test(pattern)) {
    throw new PathEscapeError(`Pattern ${JSON.stringify(pattern)} is absolute; give a pattern relative to the task folder.`);
  }
  if (pattern.startsWith('~')) throw new PathEscapeError(`Pattern ${JSON.stringify(pattern)} refers to a home folder.`);
  // `..` as a whole segment, also as a brace alternative ("{..,x}/y"); a brace range like {1..9} is fine.
  if (/(?:^|[/\\{,])\.\.(?=$|[/\\},])/u.test(pattern)) {
    throw new PathEscapeError(`Pattern ${JSON.stringify(pattern)} contains ".."; patterns stay inside the task folder.`);
  }
}

/** Whether a listed path really lies inside the root (a pattern can walk through a linked folder). */
function staysInside(root: string, rel: string): boolean {
  try {
    resolveInside(root, rel);
    return true;
  } catch {
    return false;
  }
}

const traits: ToolTraits = { kind: 'read', runsCode: false, network: false, paths: { read: ALL_AREAS, write: [] }, writesArtifacts: false, endsTurn: false };

export const globTool: Tool<typeof parameters> = {
  name: 'glob',
  description: `List files in the task folder matching a glob pattern (sorted; node_modules and .git skipped; at most ${MAX_RESULTS} results).`,
  parameters,
  traits,
  async execute(args, ctx) {
    checkPattern(args.pattern);
    const root = resolveInside(rootForPath(taskFolders(ctx), args.pattern), '.');
    // tinyglobby (with fdir and picomatch) loads at the first call, not at start-up.
    const { glob } = await import('tinyglobby');
    const found = await glob(args.pattern, {
      cwd: root,
      dot: true,
      onlyFiles: true,
      followSymbolicLinks: false,
      ignore: IGNORED_DIRS.map((dir) => `**/${dir}/**`),
      signal: ctx.signal,
    });
    // `link_out/*` walks into a linked folder whatever followSymbolicLinks says: every result is
    // checked with the path resolver, so nothing outside the root is ever listed.
    const inside = found.filter((p) => staysInside(root, p)).sort();
    if (inside.length === 0) return { content: `No files match ${args.pattern}.` };
    const shown = inside.slice(0, MAX_RESULTS);
    const note =
      inside.length > MAX_RESULTS ? `\n\n(Showing the first ${MAX_RESULTS} of ${inside.length} files; use a narrower pattern.)` : '';
    return { content: shown.join('\n') + note };
  },
};
