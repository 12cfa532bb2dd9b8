// A full garbage collection of this thread's heap, for an extraction worker that has loaded pdfjs
// and read the warm-up PDF and will now sit idle as the spare. V8 starts no major collection in an
// idle isolate, so what loading left behind (pdfjs's source texts, the code cache's bytes, the
// warm-up's buffers: ~27 MB of large objects) would stay resident until the first file's work
// triggers one. V8 offers no collection on demand without --expose-gc, and a worker cannot be
// given V8 flags, so the flag is set just long enough to make one context that holds `gc`.
import v8 from 'node:v8';
import vm from 'node:vm';

type Collect = () => void;

let collect: Collect | null | undefined;

function findCollect(): Collect | null {
  const own: unknown = (globalThis as { gc?: unknown }).gc;
  if (typeof own === 'function') return own as Collect;
  v8.setFlagsFromString('--expose-gc');
  try {
    const exposed: unknown = vm.runInNewContext('gc');
    return typeof exposed === 'function' ? (exposed as Collect) : null;
  } catch {
    return null;
  } finally {
    // Contexts made from now on (in any thread of the process) get no `gc`, as before.
    v8.setFlagsFromString('--no-expose-gc');
  }
}

/** Collects this thread's garbage now; false when the runtime offers no way to. */
export function collectGarbage(): boolean {
  collect ??= findCollect();
  if (collect === null) return false;
  collect();
  return true;
}
