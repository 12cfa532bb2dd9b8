// write: create or replace a text file, creating its folders.
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { ARTIFACT_OVERWRITE_MESSAGE, isUnderArtifacts } from './artifacts';
import { resolveInside, toRelative } from './paths';
import { errnoCode } from './text';
import { type Tool, ToolError } from './types';

const parameters = z.object({
  path: z.string().describe('File path relative to the task folder; parent folders are created.'),
  content: z.string().describe('The complete new content of the file.'),
});

export const writeTool: Tool<typeof parameters> = {
  name: 'write',
  description:
    'Write a text file in the task folder (creating parent folders), replacing it if it exists. ' +
    'Files under artifacts/ are never replaced: write a new name instead. Prefer edit for small changes.',
  parameters,
  kind: 'edit',
  async execute(args, ctx) {
    const abs = resolveInside(ctx.root, args.path);
    const rel = toRelative(ctx.root, abs);
    if (rel === '.') throw new ToolError('write needs a file path, not the task folder itself.');
    const existing = await fs.stat(abs).catch((err: unknown) => {
      if (errnoCode(err) === 'ENOENT') return null;
      throw err;
    });
    if (existing?.isDirectory()) throw new ToolError(`${rel} is a directory; give a file path.`);
    const artifact = isUnderArtifacts(rel);
    if (artifact && existing) throw new ToolError(`${rel} already exists: ${ARTIFACT_OVERWRITE_MESSAGE}.`);

    await fs.mkdir(path.dirname(abs), { recursive: true });
    try {
      // `wx` closes the race between the existence check and the write for artifacts.
      await fs.writeFile(abs, args.content, { encoding: 'utf8', flag: artifact ? 'wx' : 'w' });
    } catch (err) {
      if (errnoCode(err) === 'EEXIST') throw new ToolError(`${rel} already exists: ${ARTIFACT_OVERWRITE_MESSAGE}.`);
      throw err;
    }
    const bytes = Buffer.byteLength(args.content, 'utf8');
    return { content: `${existing ? 'Replaced' : 'Created'} ${rel} (${bytes} bytes written).`, touched: [rel] };
  },
};
