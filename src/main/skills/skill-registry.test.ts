import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSkills } from './skill-registry';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'folio-skills-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function writeSkill(name: string, frontmatter: string, body = 'Steps.'): void {
  mkdirSync(join(root, name), { recursive: true });
  writeFileSync(join(root, name, 'SKILL.md'), `---\n${frontmatter}\n---\n${body}\n`);
}

describe('reading skills again', () => {
  it('sees an edited, a broken and a repaired SKILL.md at the next read', () => {
    writeSkill('notes', 'name: notes\ndescription: Takes notes.');
    const first = loadSkills({ builtin: root });
    expect(first.skills.map((s) => s.description)).toEqual(['Takes notes.']);
    // unchanged: the same parsed skill comes back
    expect(loadSkills({ builtin: root }).skills[0]).toBe(first.skills[0]);

    writeSkill('notes', 'name: notes\ndescription: Takes careful notes.\nmax_turns: 3');
    const edited = loadSkills({ builtin: root }).skills[0];
    expect(edited?.description).toBe('Takes careful notes.');
    expect(edited?.agent?.maxTurns).toBe(3);

    writeSkill('notes', 'name: Not A Name\ndescription: x');
    const broken = loadSkills({ builtin: root });
    expect(broken.skills).toEqual([]);
    expect(broken.warnings[0]?.message).toMatch(/^Skill skipped: .*name/u);
    // the warning is given on every read, not only the one that parsed the file
    expect(loadSkills({ builtin: root }).warnings).toHaveLength(1);

    writeSkill('notes', 'name: notes\ndescription: Takes notes.');
    expect(loadSkills({ builtin: root }).skills.map((s) => s.description)).toEqual(['Takes notes.']);
  });

  it('keeps a user skill apart from a built-in one with the same text', () => {
    const user = mkdtempSync(join(tmpdir(), 'folio-skills-user-'));
    try {
      writeSkill('notes', 'name: notes\ndescription: Takes notes.');
      mkdirSync(join(user, 'notes'));
      writeFileSync(join(user, 'notes', 'SKILL.md'), '---\nname: notes\ndescription: Takes notes.\n---\nSteps.\n');
      const [skill] = loadSkills({ builtin: root, user }).skills;
      expect(skill?.source).toBe('user');
      expect(skill?.dir).toBe(join(user, 'notes'));
    } finally {
      rmSync(user, { recursive: true, force: true });
    }
  });
});

describe('person-facing title and summary', () => {
  it('are read in both UI languages, apart from the model-facing description', () => {
    writeSkill('notes', 'name: notes\ndescription: Use when the person asks for notes.\ntitle:\n  en: Notes\n  zh-CN: 笔记\nsummary:\n  en: Takes notes.\n  zh-CN: 记笔记。');
    const [skill] = loadSkills({ builtin: root }).skills;
    expect(skill?.title).toEqual({ en: 'Notes', 'zh-CN': '笔记' });
    expect(skill?.summary).toEqual({ en: 'Takes notes.', 'zh-CN': '记笔记。' });
    expect(skill?.description).toBe('Use when the person asks for notes.');
  });

  it('are optional: a skill without them loads with neither', () => {
    writeSkill('notes', 'name: notes\ndescription: Takes notes.');
    const [skill] = loadSkills({ user: root, builtin: join(root, 'none') }).skills;
    expect(skill?.title).toBeUndefined();
    expect(skill?.summary).toBeUndefined();
  });

  it('skip the skill with a warning naming the field when a language is missing', () => {
    writeSkill('notes', 'name: notes\ndescription: Takes notes.\nsummary:\n  en: Takes notes.');
    const out = loadSkills({ builtin: root });
    expect(out.skills).toEqual([]);
    expect(out.warnings[0]?.message).toMatch(/^Skill skipped: .*summary/u);
  });
});
