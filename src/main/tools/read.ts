// read: numbered lines of a text file, paged so the model can ask for the rest.
import fs from 'node:fs/promises';
import { z } from 'zod';
import { resolveInside } from './paths';
import { cutLine, errnoCode, formatBytes, looksBinary, splitLines } from './text';
import { type Tool, ToolError } from './types';

const DEFAULT_LIMIT = 2000;
const MAX_LINE_CHARS = 2000;
/** Stays under the loop's 16,000-character cap so the continuation note is never cut off. */
const MAX_OUTPUT_CHARS = 15_000;
const MAX_FILE_BYTES = 50 * 1024 * 1024;

const parameters = z.object({
  path: z.string().describe('File path relative to the task folder.'),
  offset: z.number().int().min(1).optional().describe('1-based line to start at (default 1).'),
  limit: z.number().int().min(1).optional().describe(`Maximum lines to return (default ${DEFAULT_LIMIT}).`),
});

export const readTool: Tool<typeof parameters> = {
  name: 'read',
  description:
    'Read a text file in the task folder. Returns numbered lines ("     1\\tline"); long files are paged: ' +
    'the footer says how to read more with offset/limit. Binary files (PDF, images) are refused.',
  parameters,
  kind: 'read',
  async execute(args, ctx) {
    const abs = resolveInside(ctx.root, args.path);
    let stat;
    try {
      stat = await fs.stat(abs);
    } catch (err) {
      if (errnoCode(err) === 'ENOENT') throw new ToolError(`File not found: ${args.path}`);
      throw err;
    }
    if (stat.isDirectory()) throw new ToolError(`${args.path} is a directory; use glob to list its files.`);
    if (stat.size > MAX_FILE_BYTES) {
      throw new ToolError(`${args.path} is ${formatBytes(stat.size)}, too large to read; use grep to find what you need.`);
    }
    const bytes = await fs.readFile(abs);
    if (looksBinary(bytes)) {
      throw new ToolError(`${args.path} is a binary file (${formatBytes(bytes.length)}); read only shows text files.`);
    }
    const lines = splitLines(bytes.toString('utf8'));
    if (lines.length === 0) return { content: `${args.path} is empty.` };

    const start = (args.offset ?? 1) - 1;
    if (start >= lines.length) {
      throw new ToolError(`offset ${start + 1} is past the end of ${args.path} (${lines.length} lines).`);
    }
    const end = Math.min(lines.length, start + (args.limit ?? DEFAULT_LIMIT));
    const out: string[] = [];
    let chars = 0;
    let next = start;
    while (next < end) {
      const row = `${String(next + 1).padStart(6)}\t${cutLine(lines[next] ?? '', MAX_LINE_CHARS)}`;
      if (out.length > 0 && chars + row.length + 1 > MAX_OUTPUT_CHARS) break;
      out.push(row);
      chars += row.length + 1;
      next += 1;
    }
    const footer =
      next < lines.length
        ? `(Showing lines ${start + 1}-${next} of ${lines.length}. To read more, call read with offset=${next + 1}.)`
        : `(Showing lines ${start + 1}-${next} of ${lines.length}; end of file.)`;
    return { content: `${out.join('\n')}\n\n${footer}` };
  },
};
