// A file's text for a preview that shows it as it is (notes, CSV, JSON): a task's file or a library's.
import { useEffect, useState } from 'react';
import { fileBytes, type FileRef } from './file-bytes';

/** The files shown as text; anything else is offered as a download. */
export const TEXT_FILE = /\.(md|txt|csv|json)$/iu;

/**
 * undefined while loading, null when the file is not text or could not be read, else its text.
 * The file is taken by its parts, so a parent re-rendering with an equal ref loads nothing again.
 */
export function useFileText(file: FileRef): string | null | undefined {
  const [text, setText] = useState<{ key: string; value: string | null } | null>(null);
  const owner = file.kind === 'task' ? file.taskId : file.libraryId;
  const { kind, path } = file;
  const key = `${kind}:${owner}:${path}`;
  useEffect(() => {
    let alive = true;
    if (!TEXT_FILE.test(path)) {
      setText({ key, value: null });
      return;
    }
    void fileBytes(kind === 'task' ? { kind, taskId: owner, path } : { kind, libraryId: owner, path })
      .then((blob) => blob.text())
      .then(
        (value) => alive && setText({ key, value }),
        () => alive && setText({ key, value: null }),
      );
    return () => {
      alive = false;
    };
  }, [key, kind, owner, path]);
  return text?.key === key ? text.value : undefined;
}
