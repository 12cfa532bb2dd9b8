// The English a person reads is British English (the UI says "Summarise", "colours", "organisation"):
// the UI's strings and the built-in skills' titles and summaries (Settings → Skills) spell alike.
// The skills' names and descriptions are the model's (`analyze`, "Use for analyze…") and not checked.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadSkills } from './skill-registry';

const BUILTIN = fileURLToPath(new URL('../../../skills', import.meta.url));
const EN_UI = fileURLToPath(new URL('../../renderer/i18n/locales/en.json', import.meta.url));

// American forms of words the UI spells the British way; "size" and "seize" are the same on both sides.
const AMERICAN = /\b(analyz|summariz|organiz|recogniz|authoriz|optimiz|customiz|visualiz|synthesiz|prioritiz|normaliz|initializ|finaliz|minimiz|maximiz|categoriz|emphasiz|characteriz)(e|es|ed|ing|ation|ations|er|ers)\b|\b(color|behavior|favorite|center|catalog|canceled|canceling|labeled|labeling|modeled|modeling)s?\b/giu;

function strings(value: unknown, path: string, out: [string, string][]): [string, string][] {
  if (typeof value === 'string') out.push([path, value]);
  else if (value && typeof value === 'object') for (const [key, v] of Object.entries(value)) strings(v, path ? `${path}.${key}` : key, out);
  return out;
}

function american(shown: [string, string][]): string[] {
  return shown.flatMap(([where, text]) => [...text.matchAll(AMERICAN)].map((m) => `${where}: "${m[0]}"`));
}

describe('the English a person reads is spelt one way', () => {
  it('the UI strings use British spellings', () => {
    expect(american(strings(JSON.parse(fs.readFileSync(EN_UI, 'utf8')), '', []))).toEqual([]);
  });

  it("the built-in skills' titles and summaries spell as the UI does", () => {
    const { skills } = loadSkills({ builtin: BUILTIN });
    const shown = skills.flatMap((s): [string, string][] => [
      [`${s.name} title`, s.title?.en ?? ''],
      [`${s.name} summary`, s.summary?.en ?? ''],
    ]);
    expect(american(shown)).toEqual([]);
  });

  it('finds the American forms', () => {
    expect(american([['x', 'Analyze a document. Summarizes it, in color; the canceled run']])).toHaveLength(4);
    expect(american([['x', 'Analyse a document. Summarises it, in colour; font size']])).toEqual([]);
  });
});
