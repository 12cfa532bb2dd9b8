// The bytes of a file the UI shows: a task's file, or a library's file (a search hit on a project page).
import { getApi } from './api';

export type FileRef = { kind: 'task'; taskId: string; path: string } | { kind: 'library'; libraryId: string; path: string };

export function fileBytes(ref: FileRef): Promise<Blob> {
  return ref.kind === 'task' ? getApi().downloadFile(ref.taskId, ref.path) : getApi().downloadLibraryFile(ref.libraryId, ref.path);
}
