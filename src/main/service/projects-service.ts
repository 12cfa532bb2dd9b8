// Projects and their libraries (issue 14). Placeholder handlers: the contract is in place, the
// implementation lands with the projects store and the library index.
import type { ServiceHandlers } from '../../shared/contract';
import { FolioError } from '../../shared/errors';

type ProjectMethods =
  | 'createProject'
  | 'listProjects'
  | 'getProject'
  | 'updateProject'
  | 'deleteProject'
  | 'listLibraryFiles'
  | 'addLibraryFiles'
  | 'deleteLibraryFile'
  | 'searchLibrary';

function notYet(): never {
  throw new FolioError('unsupported', 'Projects are not available yet');
}

export function createProjectHandlers(): Pick<ServiceHandlers, ProjectMethods> {
  return {
    createProject: async () => notYet(),
    listProjects: async () => notYet(),
    getProject: async () => notYet(),
    updateProject: async () => notYet(),
    deleteProject: async () => notYet(),
    listLibraryFiles: async () => notYet(),
    addLibraryFiles: async () => notYet(),
    deleteLibraryFile: async () => notYet(),
    searchLibrary: async () => notYet(),
  };
}
