// write: create or replace a text file, creating its folders.
import fs from 'node:fs/promises';
import { z } from 'zod';
import { writeInside } from '../workspace/task-paths';
import { ARTIFACT_OVERWRITE_MESSAGE } from './artifacts';
import { gitWriteRisk } from './git-files';
import { errnoCode } from './text';
import { resolveToolPath, type Tool, ToolError, ToolNotAllowedError, type ToolTraits } from './types';

const parameters = z.object({
  path: z.string().describe('File path relative to the task folder; parent folders are created.'),
  content: z.string().describe('The complete new content of the file.'),
});

const traits: ToolTraits = { kind: 'edit', runsCode: false, network: false, paths: { read: [], write: ['work', 'artifact'] }, writesArtifacts: false, endsTurn: false };

export const writeTool: Tool<typeof parameters> = {
  name: 'write',
  description:
    'Write a text file in the task folder (creating parent folders), replacing it if it exists. ' +
    'Files under artifacts/ are never replaced: write a new name instead. Files under source/ (the originals) are read-only. ' +
    'Prefer edit for small changes.',
  parameters,
  traits,
  assess(args, ctx) {
    const { rel } = resolveToolPath(ctx, traits, args.path, 'write');
    return gitWriteRisk(rel, args.content) ?? { risk: 'standard', detail: null };
  },
  async execute(args, ctx) {
    const { abs, rel, root, area } = resolveToolPath(ctx, traits, args.path, 'write');
    if (rel === '.') throw new ToolError('write needs a file path, not the task folder itself.');
    const existing = await fs.stat(abs).catch((err: unknown) => {
      if (errnoCode(err) === 'ENOENT') return null;
      throw err;
    });
    if (existing?.isDirectory()) throw new ToolError(`${rel} is a directory; give a file path.`);
    const artifact = area === 'artifact';
    if (artifact && existing) throw new ToolNotAllowedError(`${rel} already exists: ${ARTIFACT_OVERWRITE_MESSAGE}.`, rel);

    try {
      // Exclusive creation closes the race between the existence check and the write for artifacts.
      await writeInside(root, rel, args.content, { exclusive: artifact });
    } catch (err) {
      if (errnoCode(err) === 'EEXIST') throw new ToolNotAllowedError(`${rel} already exists: ${ARTIFACT_OVERWRITE_MESSAGE}.`, rel);
      throw err;
    }
    const bytes = Buffer.byteLength(args.content, 'utf8');
    return { content: `${existing ? 'Replaced' : 'Created'} ${rel} (${bytes} bytes written).`, touched: [rel] };
  },
};
