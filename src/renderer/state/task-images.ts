// Images a deck spec names (paths in the task folder), loaded once through readFile and kept as
// blob URLs for the session, so thumbnails and the enlarged slide share one copy.
import { useEffect, useState } from 'react';
import { getApi } from './api';

const cache = new Map<string, Promise<string | null>>();

function decodeBase64(data: string): Uint8Array<ArrayBuffer> {
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** A blob URL for the image, or null when it is missing, too large or not an image. */
export function loadTaskImage(taskId: string, path: string): Promise<string | null> {
  const key = `${taskId}\n${path}`;
  let pending = cache.get(key);
  if (!pending) {
    pending = getApi()
      .client.readFile({ task_id: taskId, path })
      .then((file) => {
        if (!file.mime.startsWith('image/')) return null;
        const body = file.encoding === 'base64' ? decodeBase64(file.data) : file.data;
        return URL.createObjectURL(new Blob([body], { type: file.mime }));
      })
      // A missing image is shown as a placeholder, like the .pptx does; nothing to report.
      .catch(() => null);
    cache.set(key, pending);
  }
  return pending;
}

/** undefined while loading, null when there is no usable image. */
export function useTaskImage(taskId: string, path: string): string | null | undefined {
  const [url, setUrl] = useState<{ key: string; value: string | null } | null>(null);
  const key = `${taskId}\n${path}`;
  useEffect(() => {
    let alive = true;
    void loadTaskImage(taskId, path).then((value) => {
      if (alive) setUrl({ key, value });
    });
    return () => {
      alive = false;
    };
  }, [taskId, path, key]);
  return url?.key === key ? url.value : undefined;
}
