// Ranked search over library pages. PLACEHOLDER until the FTS5/BM25 search lands (issue 14): a plain
// substring scan, unranked, so the rest of the library can be built and tested against this seam.
import type Database from 'better-sqlite3';
import { LIBRARY_PREFIX, PERSONAL_LIBRARY, type LibraryHit, type LibraryId, type LibrarySearchResult } from '../../shared/contract/projects';

/** Turns text into a vector (an OpenAI-compatible /embeddings endpoint); null: no embedding profile. */
export interface Embedder {
  readonly model: string;
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

export interface LibrarySearchInput {
  /** The libraries to search: a project's id and/or `personal`. */
  libraries: LibraryId[];
  query: string;
  limit: number;
}

interface PageRow {
  project_id: string | null;
  path: string;
  page: number;
  text: string;
}

export function taskPathOf(library: LibraryId, path: string): string {
  return `${LIBRARY_PREFIX}/${library === PERSONAL_LIBRARY ? 'personal' : 'project'}/${path}`;
}

export async function searchLibrary(
  db: Database.Database,
  input: LibrarySearchInput,
  _embedder: Embedder | null,
  _signal?: AbortSignal,
): Promise<LibrarySearchResult> {
  const projects = input.libraries.filter((l) => l !== PERSONAL_LIBRARY);
  const personal = input.libraries.includes(PERSONAL_LIBRARY);
  const rows = db
    .prepare<unknown[], PageRow>(
      `SELECT f.project_id, f.path, p.page, p.text FROM library_pages p JOIN library_files f ON f.id = p.file_id
       WHERE instr(p.text, ?) > 0 AND (f.project_id IN (SELECT value FROM json_each(?)) OR (? AND f.project_id IS NULL))
       LIMIT ?`,
    )
    .all(input.query, JSON.stringify(projects), personal ? 1 : 0, input.limit);
  const hits: LibraryHit[] = rows.map((r) => {
    const at = r.text.indexOf(input.query);
    const start = Math.max(0, at - 40);
    const snippet = r.text.slice(start, at + input.query.length + 40);
    const library = r.project_id ?? PERSONAL_LIBRARY;
    return {
      library, path: r.path, task_path: taskPathOf(library, r.path), page: r.page, snippet,
      highlights: [[at - start, at - start + input.query.length]], score: 0, matched_by: 'text',
    };
  });
  return { hits, mode: 'text', note: null };
}
