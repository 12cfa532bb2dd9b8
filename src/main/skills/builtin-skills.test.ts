// The skills Folio ships (top-level skills/), and the loader's behaviour on skills from elsewhere.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHART_TYPES, DECK_LAYOUTS, QUALITY_ISSUE_KINDS, validateDeckSpec } from '../../shared/specs/deck';
import { DocumentSpec, templateOutline } from '../../shared/specs/document';
import { toolCatalog } from '../tools/catalog';
import { loadSkills } from './skill-registry';

const BUILTIN = fileURLToPath(new URL('../../../skills', import.meta.url));
const EXPECTED = ['analyze', 'coding', 'compare', 'contract-review', 'extract-table', 'literature-review', 'meeting-minutes', 'ppt', 'proofread', 'proposal', 'summarize', 'translate'];
// The skills that run as sub-agents (short bodies: they are system prompts)
const AGENT_SKILLS = ['analyze', 'compare', 'contract-review', 'extract-table', 'literature-review', 'meeting-minutes'];

function readSkillFile(name: string, rel: string): string {
  return fs.readFileSync(path.join(BUILTIN, name, rel), 'utf8');
}

describe('built-in skills', () => {
  const { skills, warnings } = loadSkills({ builtin: BUILTIN });

  it('all load without warnings', () => {
    expect(warnings).toEqual([]);
    expect(skills.map((s) => s.name)).toEqual(EXPECTED);
    for (const skill of skills) expect(skill.source).toBe('builtin');
  });

  it('have a person-facing title and summary in English and Chinese', () => {
    const cjk = /\p{Script=Han}/u;
    for (const skill of skills) {
      for (const text of [skill.title, skill.summary]) {
        expect(text, skill.name).toBeDefined();
        expect(text?.en, skill.name).not.toMatch(cjk);
        expect(text?.['zh-CN'], skill.name).toMatch(cjk);
      }
      expect(skill.summary?.en, skill.name).not.toBe(skill.description);
    }
  });

  it('have unique names that match their folder names', () => {
    expect(new Set(skills.map((s) => s.name)).size).toBe(skills.length);
    for (const skill of skills) expect(path.basename(skill.dir)).toBe(skill.name);
  });

  it('have specific descriptions within the 1024-character limit and substantial bodies', () => {
    for (const skill of skills) {
      expect(skill.description.length).toBeLessThanOrEqual(1024);
      expect(skill.description.length).toBeGreaterThan(100);
      // A sub-agent's body is its whole system prompt: short and to the point.
      if (skill.agent) expect(skill.body.length).toBeLessThan(2500);
      else expect(skill.body.length).toBeGreaterThan(1500);
      // Principles, not recipes (seed 002 §3.5).
      expect(skill.body).not.toMatch(/^#+\s*Step \d/imu);
    }
  });

  it('the sub-agent skills declare their fields, and every tool they name exists', () => {
    expect(skills.filter((s) => s.agent !== null).map((s) => s.name)).toEqual(AGENT_SKILLS);
    const toolNames = new Set(toolCatalog({ skillsUserDir: os.tmpdir() }).map((t) => t.name));
    for (const skill of skills) {
      for (const name of skill.agent?.tools ?? []) {
        const ok = toolNames.has(name) || (name.startsWith('skill_') && skills.some((s) => s.name === name.slice('skill_'.length)));
        expect(ok, `${skill.name}: ${name}`).toBe(true);
      }
    }
    const review = skills.find((s) => s.name === 'contract-review')?.agent;
    expect(review?.tools).toEqual(expect.arrayContaining(['skill_analyze', 'skill_compare', 'skill_proofread']));
    expect(review?.output).toBe('work/contract-review');
    expect(review?.input.map((a) => [a.name, a.required])).toEqual([
      ['contract', true],
      ['reference', false],
    ]);
    expect(skills.find((s) => s.name === 'analyze')?.agent).toMatchObject({ model: 'worker', maxTurns: 8 });
    // Instruction skills keep working as loaded instructions.
    expect(skills.find((s) => s.name === 'proofread')?.agent).toBeNull();
  });

  it('only point to reference and asset files that exist', () => {
    for (const skill of skills) {
      const mentioned = [...skill.body.matchAll(/`((?:references|assets|scripts)\/[^`\s]+)`/gu)].map((m) => m[1] ?? '');
      for (const rel of mentioned) expect(fs.existsSync(path.join(skill.dir, rel)), `${skill.name}: ${rel}`).toBe(true);
    }
    expect(fs.existsSync(path.join(BUILTIN, 'ppt/references/deck-spec-cheatsheet.md'))).toBe(true);
    expect(fs.existsSync(path.join(BUILTIN, 'proposal/references/nsfc-outline.md'))).toBe(true);
  });

  it('ppt: the example deck validates and uses most layouts', () => {
    const raw: unknown = JSON.parse(readSkillFile('ppt', 'assets/example-deck.json'));
    const checked = validateDeckSpec(raw);
    expect(checked.ok ? [] : checked.errors).toEqual([]);
    if (!checked.ok) return;
    const layouts = new Set(checked.spec.slides.map((s) => s.layout));
    expect(layouts.size).toBeGreaterThanOrEqual(7);
    // Every content slide carries speaker notes with a source page, as the skill asks.
    const cited = checked.spec.slides.filter((s) => s.notes !== undefined && /第\d+(?:-\d+)?页/u.test(s.notes));
    expect(cited.length).toBeGreaterThanOrEqual(3);
  });

  it('ppt: the skill and the cheat-sheet describe every layout, chart type and report kind the engine has', () => {
    const body = readSkillFile('ppt', 'SKILL.md');
    const sheet = readSkillFile('ppt', 'references/deck-spec-cheatsheet.md');
    for (const layout of DECK_LAYOUTS) {
      expect(body).toContain(`\`${layout}\``);
      expect(sheet).toContain(`"layout": "${layout}"`);
    }
    for (const type of CHART_TYPES) expect(body).toContain(`\`${type}\``);
    for (const kind of QUALITY_ISSUE_KINDS) {
      expect(body).toContain(`\`${kind}\``);
      expect(sheet).toContain(`\`${kind}\``);
    }
    for (const theme of ['academic', 'business', 'minimal', 'dark']) expect(body).toContain(`\`${theme}\``);
    expect(body).toContain('render_deck');
    expect(body).toContain('work/deck.json');
  });

  it('proposal: the example document.json validates and the NSFC reference covers every expected section', () => {
    const raw: unknown = JSON.parse(readSkillFile('proposal', 'assets/document.example.json'));
    const parsed = DocumentSpec.safeParse(raw);
    expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
    const reference = readSkillFile('proposal', 'references/nsfc-outline.md');
    const body = readSkillFile('proposal', 'SKILL.md');
    for (const entry of templateOutline('nsfc')) {
      expect(reference).toContain(entry.title);
      expect(body).toContain(entry.title);
    }
    for (const needle of ['spec_lock.md', 'render_document', 'work/proposal', 'missing_section', '（来源：']) expect(body).toContain(needle);
  });
});

describe('skills from elsewhere', () => {
  let userDir: string;
  beforeEach(() => {
    userDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'folio-user-skills-')));
  });
  afterEach(() => fs.rmSync(userDir, { recursive: true, force: true }));

  function writeSkill(folder: string, text: string, extra: Record<string, string> = {}): void {
    const dir = path.join(userDir, folder);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'SKILL.md'), text);
    for (const [rel, content] of Object.entries(extra)) {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), content);
    }
  }

  // The shape skills have in the public Agent Skills ecosystem (anthropics/skills and others):
  // license, metadata and allowed-tools in the frontmatter, details in references/.
  const ecosystemBody = [
    '# PDF processing',
    '',
    'Use pypdf to merge and split files. For form filling, read [the forms guide](references/FORMS.md).',
    '',
    '```python',
    'from pypdf import PdfReader',
    '```',
  ].join('\n');
  const ecosystemSkill = [
    '---',
    'name: pdf-processing',
    'description: Extract text and tables from PDF files, fill forms, merge documents. Use when working with PDF files or when the user mentions PDFs, forms, or document extraction.',
    'license: Apache-2.0',
    'metadata:',
    '  author: example-org',
    '  version: "1.0"',
    'allowed-tools: Bash(python:*) Read Write',
    '---',
    '',
    ecosystemBody,
    '',
  ].join('\n');

  it('loads an Agent Skills ecosystem skill unchanged, with its references/ folder', () => {
    writeSkill('pdf-processing', ecosystemSkill, { 'references/FORMS.md': '# Forms\n' });
    const { skills, warnings } = loadSkills({ builtin: BUILTIN, user: userDir });
    expect(warnings).toEqual([]);
    const skill = skills.find((s) => s.name === 'pdf-processing');
    expect(skill).toMatchObject({
      source: 'user',
      dir: path.join(userDir, 'pdf-processing'),
      path: path.join(userDir, 'pdf-processing', 'SKILL.md'),
      body: ecosystemBody,
    });
    expect(skill?.description).toMatch(/^Extract text and tables from PDF files/u);
    expect(fs.existsSync(path.join(skill?.dir ?? '', 'references/FORMS.md'))).toBe(true);
    expect(skills).toHaveLength(EXPECTED.length + 1);
  });

  it('skips a broken SKILL.md with a warning naming it, and still loads the others', () => {
    writeSkill('broken-yaml', '---\nname: broken\ndescription: [unclosed\n---\nbody\n');
    writeSkill('no-frontmatter', '# Just markdown\n');
    writeSkill('no-description', '---\nname: nodesc\n---\nbody\n');
    writeSkill('good', '---\nname: good\ndescription: A fine skill for testing the loader.\n---\nBody.\n');
    const { skills, warnings } = loadSkills({ builtin: BUILTIN, user: userDir });
    expect(warnings.map((w) => path.basename(path.dirname(w.source))).sort()).toEqual(['broken-yaml', 'no-description', 'no-frontmatter']);
    for (const w of warnings) expect(w.message).toMatch(/^Skill skipped: /u);
    expect(warnings.find((w) => w.source.includes('no-frontmatter'))?.message).toMatch(/frontmatter/u);
    expect(warnings.find((w) => w.source.includes('no-description'))?.message).toMatch(/description/u);
    expect(skills.map((s) => s.name)).toEqual([...EXPECTED, 'good'].sort());
  });

  it('lets a user skill with a built-in name replace the built-in one', () => {
    writeSkill('ppt', '---\nname: ppt\ndescription: Our lab deck rules, replacing the built-in ppt skill.\n---\nUse the lab template.\n');
    const { skills, warnings } = loadSkills({ builtin: BUILTIN, user: userDir });
    expect(warnings).toEqual([]);
    const ppt = skills.filter((s) => s.name === 'ppt');
    expect(ppt).toHaveLength(1);
    expect(ppt[0]).toMatchObject({ source: 'user', body: 'Use the lab template.', dir: path.join(userDir, 'ppt') });
    expect(skills).toHaveLength(EXPECTED.length);
  });

  it('reads the sub-agent fields, and skips a file with a bad one with a warning', () => {
    writeSkill('agent', '---\nname: agent\ndescription: A sub-agent skill for the loader test.\nmodel: worker\ntools: [read, skill_other]\nmax_turns: 3\ninput:\n  file: the file\n  note: {description: a note, required: false}\noutput: work/out\nmetadata: {team: lab}\n---\nDo it.\n');
    writeSkill('escape', '---\nname: escape\ndescription: Writes outside the task folder, which is refused.\noutput: ../elsewhere\n---\nNo.\n');
    writeSkill('turns', '---\nname: turns\ndescription: Asks for far more turns than a level may have.\nmax_turns: 5000\n---\nNo.\n');
    writeSkill('.draft-x-123', '---\nname: half\ndescription: A skill_create draft not yet renamed into place.\n---\nNo.\n');
    const { skills, warnings } = loadSkills({ builtin: BUILTIN, user: userDir });
    expect(skills.find((s) => s.name === 'agent')?.agent).toEqual({
      model: 'worker',
      tools: ['read', 'skill_other'],
      maxTurns: 3,
      input: [
        { name: 'file', description: 'the file', required: true },
        { name: 'note', description: 'a note', required: false },
      ],
      output: 'work/out',
    });
    expect(warnings.map((w) => path.basename(path.dirname(w.source))).sort()).toEqual(['escape', 'turns']);
    expect(warnings.find((w) => w.source.includes('escape'))?.message).toMatch(/output must be a folder inside the task/u);
    expect(skills.some((s) => s.name === 'half')).toBe(false);
  });
});
