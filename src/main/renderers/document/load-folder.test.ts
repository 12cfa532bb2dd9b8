import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FolioError } from '../../../shared/errors';
import { findJsonError } from '../json-position';
import { loadDocumentFolder, parseSpec } from './load-folder';

const SAMPLE = join(import.meta.dirname, '../../../../samples/proposal-nsfc');

function folderWith(spec: unknown, sections: Record<string, string> = { '01_intro.md': '# Intro\n\nText.' }): string {
  const dir = mkdtempSync(join(tmpdir(), 'folio-docspec-'));
  writeFileSync(join(dir, 'document.json'), typeof spec === 'string' ? spec : JSON.stringify(spec, null, 2));
  mkdirSync(join(dir, 'sections'));
  for (const [name, text] of Object.entries(sections)) writeFileSync(join(dir, 'sections', name), text);
  return dir;
}

function errorOf(fn: () => unknown): FolioError {
  try {
    fn();
  } catch (err) {
    if (err instanceof FolioError) return err;
    throw err;
  }
  throw new Error('expected an error');
}

const good = { title: 'T', authors: ['A'], template: 'report', language: 'en' };

describe('loadDocumentFolder', () => {
  it('loads the NSFC sample with its sections in the listed order', () => {
    const doc = loadDocumentFolder(SAMPLE);
    expect(doc.spec.template).toBe('nsfc_general');
    expect(doc.spec.language).toBe('zh-CN');
    expect(doc.sections.map((s) => s.file)).toEqual(doc.spec.sections);
    expect(doc.sections[0]?.markdown).toContain('# 立项依据');
  });

  it('defaults to every sections/*.md sorted by name', () => {
    const dir = folderWith(good, { '02_b.md': '# B', '01_a.md': '# A', '10_c.md': '# C', 'notes.txt': 'x' });
    expect(loadDocumentFolder(dir).sections.map((s) => s.file)).toEqual(['01_a.md', '02_b.md', '10_c.md']);
  });

  it('names the missing title', () => {
    const err = errorOf(() => loadDocumentFolder(folderWith({ ...good, title: undefined })));
    expect(err.code).toBe('invalid_input');
    expect(err.message).toMatch(/^document\.json: title:/);
  });

  it('names a bad template and lists the allowed ones', () => {
    const err = errorOf(() => loadDocumentFolder(folderWith({ ...good, template: 'thesis' })));
    expect(err.message).toContain('template:');
    expect(err.message).toMatch(/nsfc/);
  });

  it('names missing section files', () => {
    const err = errorOf(() => loadDocumentFolder(folderWith({ ...good, sections: ['01_intro.md', '02_gone.md', '03_also.md'] })));
    expect(err.code).toBe('not_found');
    expect(err.message).toContain('sections/02_gone.md');
    expect(err.message).toContain('sections/03_also.md');
    expect(err.message).not.toContain('01_intro.md');
  });

  it('refuses section entries that leave sections/', () => {
    const err = errorOf(() => loadDocumentFolder(folderWith({ ...good, sections: ['../document.json'] })));
    expect(err.message).toContain('sections[0]');
  });

  it('rejects unknown fields (typos would otherwise be silently ignored)', () => {
    const err = errorOf(() => loadDocumentFolder(folderWith({ ...good, authros: ['x'] })));
    expect(err.message).toContain('authros');
  });

  it('gives the line and column of malformed JSON', () => {
    const err = errorOf(() => parseSpec('{\n  "title": "T",\n  "template": nsfc\n}'));
    expect(err.message).toMatch(/malformed JSON at line 3, column \d+/);
  });

  it('reports a folder without document.json or without sections', () => {
    const empty = mkdtempSync(join(tmpdir(), 'folio-docspec-'));
    expect(errorOf(() => loadDocumentFolder(empty)).message).toContain('document.json is missing');
    const noSections = folderWith(good, {});
    expect(errorOf(() => loadDocumentFolder(noSections)).message).toContain('no .md section files');
  });
});

describe('jsonErrorPosition', () => {
  it('points at the first bad character', () => {
    expect(findJsonError('{"a": 1,\n "b": [1, 2,]\n}')).toMatchObject({ line: 2, column: 13 });
    expect(findJsonError('{"a": "x"} extra')).toMatchObject({ line: 1, column: 12 });
    expect(findJsonError('{"a": "unterminated')).toMatchObject({ line: 1, column: 20 });
    expect(findJsonError('{"a": [true, null, -1.5e3, "\\u00e9"]}')).toBeUndefined();
  });
});
