// A task's files on disk and their rows in the `files` table. Added files are copied into
// `source/` (never moved: the person's original stays where it was); a taken name gets a suffix.
import { copyFileSync, existsSync, readdirSync, statSync, constants } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import type { FileEntry } from '../../shared/contract';
import type { StorePort } from '../store/port';
import { isCacheFile } from '../sources';
import { ensureTaskDir, kindOfPath, TASK_SUBFOLDERS, taskDir } from '../workspace/layout';
import { resolveInside } from '../workspace/task-paths';
import { freeName, safeFileName, sha256File, statAddedFile } from '../workspace/added-files';

/** Files larger than this are recorded without a hash (hashing them would stall the UI). */
const HASH_LIMIT = 512 * 1024 * 1024;

export async function addSourceFile(store: StorePort, dataDir: string, taskId: string, from: string, name: string): Promise<FileEntry> {
  const stat = statAddedFile(from);
  // Resolved, not joined: a sandboxed command may have replaced source/ with a link out of the task.
  const dir = resolveInside(ensureTaskDir(dataDir, taskId), TASK_SUBFOLDERS.source);
  const target = await freeName(safeFileName(name), (n) => existsSync(join(dir, n)));
  // EXCL: never writes through a link planted under the chosen name.
  copyFileSync(from, join(dir, target), constants.COPYFILE_EXCL);
  const entry: FileEntry = {
    task_id: taskId,
    path: `${TASK_SUBFOLDERS.source}/${target}`,
    kind: 'source',
    size: stat.size,
    sha256: stat.size <= HASH_LIMIT ? await sha256File(join(dir, target)) : '',
    created_at: Date.now(),
  };
  await store.tasks.markMaterialized(taskId);
  return store.files.upsert(entry);
}

function walk(root: string, dir: string, out: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const full = join(dir, entry.name);
    // Extraction caches (source/x.pdf.md) are Folio's own bookkeeping, not the person's files.
    if (entry.isFile() && isCacheFile(relative(root, full).split(sep).join('/'))) continue;
    if (entry.isDirectory()) walk(root, full, out);
    else if (entry.isFile()) out.push(relative(root, full).split(sep).join('/'));
  }
}

/** Brings the files table in line with the task folder after tools ran (new, changed, removed). */
export async function syncTaskFiles(store: StorePort, dataDir: string, taskId: string): Promise<void> {
  const root = taskDir(dataDir, taskId);
  if (!existsSync(root)) return;
  const onDisk: string[] = [];
  walk(root, root, onDisk);
  const known = new Map((await store.files.list(taskId)).map((f) => [f.path, f]));
  for (const path of onDisk) {
    const stat = statSync(join(root, path));
    const prev = known.get(path);
    known.delete(path);
    if (prev && prev.size === stat.size && stat.mtimeMs <= prev.created_at) continue;
    const sha256 = stat.size <= HASH_LIMIT ? await sha256File(join(root, path)) : '';
    if (prev && prev.sha256 === sha256 && prev.size === stat.size) continue;
    await store.files.upsert({ task_id: taskId, path, kind: kindOfPath(path), size: stat.size, sha256, created_at: Date.now() });
  }
  for (const gone of known.keys()) await store.files.delete(taskId, gone);
}

const MIME: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.csv': 'text/csv',
  '.md': 'text/markdown',
  '.txt': 'text/plain',
  '.json': 'application/json',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.html': 'text/html',
  '.ts': 'text/plain',
  '.js': 'text/plain',
  '.py': 'text/plain',
};

export function mimeOf(path: string): string {
  return MIME[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

export function isTextMime(mime: string): boolean {
  return mime.startsWith('text/') || mime === 'application/json';
}
