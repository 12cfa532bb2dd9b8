import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLoadSkillTool } from './load-skill';
import { loadSkills } from '../skills/skill-registry';

function ctx(root: string) {
  return { root, taskId: 't', runId: 'r', callId: 'c', signal: new AbortController().signal, outbound: null };
}

describe('load_skill', () => {
  const root = mkdtempSync(join(tmpdir(), 'folio-skill-'));
  mkdirSync(join(root, 'demo', 'references'), { recursive: true });
  writeFileSync(join(root, 'demo', 'SKILL.md'), '---\nname: demo\ndescription: A demo skill\n---\nBody text.\n');
  writeFileSync(join(root, 'demo', 'references', 'notes.md'), 'Reference notes.');
  writeFileSync(join(root, 'secret.txt'), 'outside');
  const tool = createLoadSkillTool(() => loadSkills({ builtin: root }).skills);

  it('returns the body, then a reference file on demand', async () => {
    expect((await tool.execute({ name: 'demo' }, ctx(root))).content).toContain('Body text.');
    expect((await tool.execute({ name: 'demo', file: 'references/notes.md' }, ctx(root))).content).toBe('Reference notes.');
  });

  it('refuses unknown skills, missing files and paths outside the skill folder', async () => {
    await expect(tool.execute({ name: 'nope' }, ctx(root))).rejects.toThrow(/Available: demo/);
    await expect(tool.execute({ name: 'demo', file: 'references/none.md' }, ctx(root))).rejects.toThrow(/No file/);
    await expect(tool.execute({ name: 'demo', file: '../secret.txt' }, ctx(root))).rejects.toThrow();
  });
});
