// What a task's tools may see of the libraries: the LibraryPort of tools/types.ts over the
// store. A task sees its own project's library as `library/project/` and the personal library as
// `library/personal/`; another project's library is never reachable from it.
import type { LibraryId } from '../../shared/contract/projects';
import { librariesOfTask } from '../../shared/contract/library-id';
import type { Task } from '../../shared/contract';
import type { ProjectFacts } from '../agent/project-context';
import { PROMPT_LIBRARY_FILES } from '../agent/project-context';
import { storeIdOf } from '../library/files';
import { joinPages } from '../library/page-text';
import { searchLibrary, type Embedder } from '../library/search';
import type { LibraryFileRow } from '../store';
import type { StorePort } from '../store/port';
import type { LibraryDoc, LibraryPort } from '../tools/types';
import { libraryOfScope, libraryTaskPath, type LibraryScope } from '../workspace/library-paths';

/** The embedder built from the current settings (read from the store, so possibly awaited); null: full text alone. */
export type EmbedderSource = () => Embedder | null | Promise<Embedder | null>;

export interface TaskLibraries {
  /** Absent when the task sees no library at all (no project, an empty personal library). */
  port: LibraryPort | undefined;
  /** Whether any library it sees has a file: search_library is offered only then. */
  hasFiles: boolean;
  /** The project block of the system prompt, or null outside a project. */
  project: ProjectFacts | null;
  /** Outside a project: the personal library's files for the prompt. */
  personal: { files: ProjectFacts['library']; more: number };
}

function toDoc(scope: LibraryScope, row: LibraryFileRow): LibraryDoc {
  return { scope, path: row.path, taskPath: libraryTaskPath(scope, row.path), status: row.status, pages: row.pages, message: row.message };
}

function noteOf(doc: LibraryDoc): string | null {
  if (doc.status === 'pending' || doc.status === 'indexing') return 'being indexed';
  if (doc.status === 'error') return `error: ${doc.message ?? 'unreadable'}`;
  if (doc.status === 'image') return 'image, no text';
  if (doc.status === 'scanned') return 'scanned, no text layer';
  return doc.pages === null ? null : `${doc.pages} page${doc.pages === 1 ? '' : 's'}`;
}

export async function taskLibraries(store: StorePort, task: Pick<Task, 'project_id'>, embedder: EmbedderSource): Promise<TaskLibraries> {
  const project = task.project_id ? ((await store.projects.get(task.project_id)) ?? null) : null;
  const libraryOf = (scope: LibraryScope): LibraryId | null => libraryOfScope(scope, project?.id ?? null);
  const list = async (scope: LibraryScope): Promise<LibraryDoc[]> => {
    const library = libraryOf(scope);
    return library === null ? [] : (await store.library.list(storeIdOf(library))).map((row) => toDoc(scope, row));
  };
  const docs = [...(await list('project')), ...(await list('personal'))];
  const port: LibraryPort = {
    list,
    async read(scope, path) {
      const library = libraryOf(scope);
      if (library === null) return null;
      const row = await store.library.get(storeIdOf(library), path);
      return row ? { doc: toDoc(scope, row), markdown: joinPages(await store.library.pages(row.id)) } : null;
    },
    async search(query, limit, signal) {
      return searchLibrary(store, { libraries: librariesOfTask(project?.id ?? null), query, limit }, await embedder(), signal);
    },
  };
  const shown = docs.slice(0, PROMPT_LIBRARY_FILES).map((d) => ({ taskPath: d.taskPath, note: noteOf(d) }));
  const more = Math.max(0, docs.length - PROMPT_LIBRARY_FILES);
  return {
    port: project || docs.length > 0 ? port : undefined,
    hasFiles: docs.length > 0,
    project: project ? { name: project.name, instructions: project.instructions, library: shown, moreFiles: more } : null,
    personal: { files: project ? [] : shown, more: project ? 0 : more },
  };
}
