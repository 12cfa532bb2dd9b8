import { describe, expect, it } from 'vitest';
import type { FileEntry } from '../../shared/contract';
import { artifactType, listArtifacts, pdfPathFor, useArtifacts } from './artifacts-store';

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

describe('a source opened in the panel', () => {
  it('goes back to the tab it was opened from when closed', () => {
    useArtifacts.setState({ tab: 'files', sources: {} });
    useArtifacts.getState().showSource('t1', 'source/notes.pdf', 3);
    expect(useArtifacts.getState().tab).toBe('artifacts');
    expect(useArtifacts.getState().sources.t1).toEqual({ path: 'source/notes.pdf', page: 3, from: 'files' });
    // Another page of the same source (a second citation) still goes back to the files.
    useArtifacts.getState().showSource('t1', 'source/notes.pdf', 5);
    useArtifacts.getState().closeSource('t1');
    expect(useArtifacts.getState().tab).toBe('files');
    expect(useArtifacts.getState().sources.t1).toBeUndefined();

    useArtifacts.setState({ tab: 'artifacts' });
    useArtifacts.getState().showSource('t1', 'source/notes.pdf');
    useArtifacts.getState().closeSource('t1');
    expect(useArtifacts.getState().tab).toBe('artifacts');
  });
});
