import { describe, expect, it } from 'vitest';
import type { FileEntry } from '../../shared/contract';
import { artifactType, listArtifacts, pdfPathFor } from './artifacts-store';

function file(path: string, kind: FileEntry['kind'], created_at: number): FileEntry {
  return { task_id: 't1', path, kind, size: 10, sha256: 'x', created_at };
}

describe('artifacts', () => {
  it('recognises decks, documents and PDFs by extension, case-insensitively', () => {
    expect(artifactType('artifacts/a.pptx')).toBe('deck');
    expect(artifactType('artifacts/B.DOCX')).toBe('document');
    expect(artifactType('artifacts/c.pdf')).toBe('pdf');
    expect(artifactType('artifacts/notes.md')).toBeNull();
    expect(artifactType('artifacts/noext')).toBeNull();
  });

  it('lists only artifact files of those types, newest first', () => {
    const files = [
      file('artifacts/old.pptx', 'artifact', 1),
      file('source/paper.pdf', 'source', 5),
      file('artifacts/data.csv', 'artifact', 6),
      file('artifacts/new.docx', 'artifact', 3),
      file('artifacts/new.pdf', 'artifact', 3),
    ];
    expect(listArtifacts(files).map((f) => f.path)).toEqual(['artifacts/new.docx', 'artifacts/new.pdf', 'artifacts/old.pptx']);
  });

  it('names the PDF an export produces next to its source', () => {
    expect(pdfPathFor('artifacts/deck-v2.pptx')).toBe('artifacts/deck-v2.pdf');
    expect(pdfPathFor('artifacts/报告.docx')).toBe('artifacts/报告.pdf');
  });
});
