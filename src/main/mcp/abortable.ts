import { FolioError } from '../../shared/errors';

/** Waits for `promise` unless the caller gives up first (the promise itself goes on: others may share it). */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new FolioError('cancelled', 'Cancelled.'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new FolioError('cancelled', 'Cancelled.'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
