// Projects and their libraries: the contract's handlers over the projects and library
// repos, the library folders on disk and the indexer. Search ranking lives in library/search.ts.
import { rmSync } from 'node:fs';
import type { MethodOutput, ServiceHandlers } from '../../shared/contract';
import { PERSONAL_LIBRARY, type LibraryFile, type LibraryId, type Project } from '../../shared/contract/projects';
import { FolioError, NotFoundError } from '../../shared/errors';
import { addLibraryFile, storeIdOf } from '../library/files';
import { readFileContent } from './file-content';
import { libraryIdOf, type LibraryIndexer } from '../library/indexer';
import { searchLibrary, taskPathOf, type Embedder } from '../library/search';
import { newId } from '../runs/run-manager';
import type { LibraryFileRow } from '../store';
import type { StorePort } from '../store/port';
import { libraryDir, libraryFilePath } from '../workspace/library-paths';
import { projectDir } from '../workspace/layout';

type ProjectMethods =
  | 'createProject'
  | 'listProjects'
  | 'getProject'
  | 'updateProject'
  | 'deleteProject'
  | 'listLibraryFiles'
  | 'addLibraryFiles'
  | 'deleteLibraryFile'
  | 'readLibraryFile'
  | 'searchLibrary';

export interface ProjectDeps {
  store: StorePort;
  dataDir: string;
  /** Absent where nothing indexes (a handler test): files then stay pending. */
  indexer?: Pick<LibraryIndexer, 'kick'>;
  /** The configured embedding profile's client, or null (full text alone). Read at each search. */
  embedder?: () => Embedder | null | Promise<Embedder | null>;
}

/** Thrown when a task is put in a project that is archived: unarchive it first. */
export class ProjectArchivedError extends FolioError {
  constructor(project: Project) {
    super('conflict', `Project "${project.name}" is archived; unarchive it to add tasks to it.`, { name: 'ProjectArchivedError' });
  }
}

export async function requireProject(store: StorePort, id: string): Promise<Project> {
  const project = await store.projects.get(id);
  if (!project) throw new NotFoundError(`No project ${id}`);
  return project;
}

/** A project a task may join: it exists and is not archived. */
export async function requireOpenProject(store: StorePort, id: string): Promise<Project> {
  const project = await requireProject(store, id);
  if (project.archived) throw new ProjectArchivedError(project);
  return project;
}

/** The personal library always exists; a project's exists with its project. */
async function requireLibrary(store: StorePort, library: LibraryId): Promise<void> {
  if (library !== PERSONAL_LIBRARY) await requireProject(store, library);
}

export function toLibraryFile(row: LibraryFileRow): LibraryFile {
  const library = libraryIdOf(row);
  return {
    library,
    path: row.path,
    task_path: taskPathOf(library, row.path),
    size: row.size,
    sha256: row.sha256,
    status: row.status,
    pages: row.pages,
    message: row.message,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** A file to add to a library; `sha256` when the caller has hashed it already. */
export interface IncomingLibraryFile {
  path: string;
  name: string;
  sha256?: string;
}

/**
 * Copies files (local paths) into a library and queues them for indexing. `stored` is told the size
 * of each file actually copied (a copy of bytes the library already had stores none), as it is
 * copied, so a caller counting bytes knows them after a failure too.
 */
export async function addFilesToLibrary(deps: ProjectDeps, library: LibraryId, files: IncomingLibraryFile[], stored: (bytes: number) => void = () => undefined): Promise<LibraryFile[]> {
  await requireLibrary(deps.store, library);
  const out: LibraryFile[] = [];
  try {
    for (const f of files) {
      const { row, added } = await addLibraryFile(deps.store, deps.dataDir, library, f.path, f.name, () => newId('lf'), f.sha256);
      if (added) stored(row.size);
      out.push(toLibraryFile(row));
    }
  } finally {
    // The files copied before a failure are indexed too.
    deps.indexer?.kick();
  }
  return out;
}

export function createProjectHandlers(deps: ProjectDeps): Pick<ServiceHandlers, ProjectMethods> {
  const { store, dataDir } = deps;
  return {
    async createProject(input) {
      return store.projects.create({
        id: newId('p'),
        name: input.name,
        ...(input.instructions !== undefined ? { instructions: input.instructions } : {}),
        default_model: input.default_model ?? null,
        default_mode: input.default_mode ?? null,
        default_approval_mode: input.default_approval_mode ?? null,
      });
    },
    async listProjects(input) {
      const open = await store.projects.list();
      return { projects: input.archived === 'true' ? [...open, ...(await store.projects.list({ archived: true }))] : open };
    },
    async getProject(input) {
      return requireProject(store, input.project_id);
    },
    async updateProject(input) {
      await requireProject(store, input.project_id);
      const { project_id, ...patch } = input;
      return store.projects.update(project_id, patch);
    },
    async deleteProject(input): Promise<MethodOutput<'deleteProject'>> {
      await requireProject(store, input.project_id);
      // Rows first (library files CASCADE, tasks SET NULL): an indexer pass finishing meanwhile
      // finds its file gone and writes nothing. Then the copies on disk.
      await store.projects.delete(input.project_id);
      rmSync(libraryDir(dataDir, input.project_id), { recursive: true, force: true });
      rmSync(projectDir(dataDir, input.project_id), { recursive: true, force: true });
      return { ok: true };
    },
    async listLibraryFiles(input) {
      await requireLibrary(store, input.project_id);
      const id = storeIdOf(input.project_id);
      return { files: (await store.library.list(id)).map(toLibraryFile), progress: await store.library.progress(id) };
    },
    async addLibraryFiles(input) {
      return { files: await addFilesToLibrary(deps, input.project_id, input.paths.map((p) => ({ path: p, name: p }))) };
    },
    async deleteLibraryFile(input): Promise<MethodOutput<'deleteLibraryFile'>> {
      await requireLibrary(store, input.project_id);
      const abs = libraryFilePath(dataDir, input.project_id, input.path);
      // The row goes first: its pages (and so its search hits) go with it in the same statement.
      if (!(await store.library.delete(storeIdOf(input.project_id), input.path))) throw new NotFoundError(`No file ${input.path} in this library`);
      rmSync(abs, { force: true });
      return { ok: true };
    },
    async readLibraryFile(input) {
      await requireLibrary(store, input.project_id);
      // Only what the library lists: a file the index does not know is not served.
      if (!(await store.library.get(storeIdOf(input.project_id), input.path))) throw new NotFoundError(`No file ${input.path} in this library`);
      return readFileContent(libraryDir(dataDir, input.project_id), input.path, `No file ${input.path} in this library`);
    },
    async searchLibrary(input) {
      await requireLibrary(store, input.project_id);
      // A project's search covers its library and the personal one; `personal` searches that alone.
      const libraries: LibraryId[] = input.project_id === PERSONAL_LIBRARY ? [PERSONAL_LIBRARY] : [input.project_id, PERSONAL_LIBRARY];
      return searchLibrary(store, { libraries, query: input.q, limit: input.limit ?? 10 }, (await deps.embedder?.()) ?? null);
    },
  };
}
