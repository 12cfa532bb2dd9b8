// glob: list files in the task folder by pattern.
import fs from 'node:fs';
import { glob } from 'tinyglobby';
import { z } from 'zod';
import { type Tool, ToolError } from './types';

const MAX_RESULTS = 500;
export const IGNORED_DIRS = ['node_modules', '.git'];

const parameters = z.object({
  pattern: z.string().min(1).describe('Glob relative to the task folder, e.g. "**/*.md" or "source/*.pdf".'),
});

/** Refuses patterns that could reach outside the root; tinyglobby would happily follow them. */
export function checkPattern(pattern: string): void {
  if (pattern.includes('\0')) throw new ToolError('Pattern contains a NUL byte.');
  if (/^(?:[/\\]|[A-Za-z]:)/u.test(pattern)) {
    throw new ToolError(`Pattern ${JSON.stringify(pattern)} is absolute; give a pattern relative to the task folder.`);
  }
  if (pattern.startsWith('~')) throw new ToolError(`Pattern ${JSON.stringify(pattern)} refers to a home folder.`);
  // `..` as a whole segment, also as a brace alternative ("{..,x}/y"); a brace range like {1..9} is fine.
  if (/(?:^|[/\\{,])\.\.(?=$|[/\\},])/u.test(pattern)) {
    throw new ToolError(`Pattern ${JSON.stringify(pattern)} contains ".."; patterns stay inside the task folder.`);
  }
}

export const globTool: Tool<typeof parameters> = {
  name: 'glob',
  description: `List files in the task folder matching a glob pattern (sorted; node_modules and .git skipped; at most ${MAX_RESULTS} results).`,
  parameters,
  kind: 'read',
  async execute(args, ctx) {
    checkPattern(args.pattern);
    const root = fs.realpathSync.native(ctx.root);
    const found = await glob(args.pattern, {
      cwd: root,
      dot: true,
      onlyFiles: true,
      followSymbolicLinks: false,
      ignore: IGNORED_DIRS.map((dir) => `**/${dir}/**`),
      signal: ctx.signal,
    });
    // Defence in depth: whatever the matcher did, nothing outside the root is reported.
    const inside = found.filter((p) => !p.startsWith('../') && p !== '..' && !p.startsWith('/')).sort();
    if (inside.length === 0) return { content: `No files match ${args.pattern}.` };
    const shown = inside.slice(0, MAX_RESULTS);
    const note =
      inside.length > MAX_RESULTS ? `\n\n(Showing the first ${MAX_RESULTS} of ${inside.length} files; use a narrower pattern.)` : '';
    return { content: shown.join('\n') + note };
  },
};
