// The projects and library repos on a real database: counts measured from the tables,
// archive, deletion (library rows CASCADE, tasks SET NULL), one transaction per file's pages, and
// the FTS index following the pages.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from './index';
import { makeTempDir } from './test-helpers';

let store: Store;
let cleanup: () => void;
let clock = 1000;

beforeEach(() => {
  const tmp = makeTempDir();
  cleanup = tmp.cleanup;
  store = openStore(tmp.dbPath, { now: () => clock++ });
});
afterEach(() => {
  store.close();
  cleanup();
});

const file = (id: string, project_id: string | null, path: string, sha256 = `sha-${id}`) => ({ id, project_id, path, size: 10, mtime_ms: 5, sha256 });
const ftsCount = (q: string) => store.db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM library_fts WHERE library_fts MATCH ?').get(q)?.n;

describe('projects repo', () => {
  it('creates with defaults, patches only what is given, lists open or archived, counts tasks and files', () => {
    const p = store.projects.create({ id: 'p1', name: 'Heat', default_mode: 'proposal' });
    expect(p).toMatchObject({ instructions: '', default_model: null, default_mode: 'proposal', archived: false, task_count: 0, file_count: 0 });
    store.tasks.create({ id: 't1', mode: 'general', title: '', description: '', model: null, project_id: 'p1' });
    store.library.add(file('f1', 'p1', 'a.pdf'));
    const patched = store.projects.update('p1', { instructions: 'Cite in GB/T 7714.', default_mode: null });
    expect(patched).toMatchObject({ name: 'Heat', instructions: 'Cite in GB/T 7714.', default_mode: null, task_count: 1, file_count: 1 });
    store.projects.update('p1', { archived: true });
    expect(store.projects.list()).toEqual([]);
    expect(store.projects.list({ archived: true }).map((x) => x.id)).toEqual(['p1']);
    expect(() => store.projects.update('nope', { name: 'x' })).toThrow(/No project nope/u);
  });

  it('deleting a project removes its library rows and pages and leaves its tasks without a project', () => {
    store.projects.create({ id: 'p1', name: 'Heat' });
    store.tasks.create({ id: 't1', mode: 'general', title: '', description: '', model: null, project_id: 'p1' });
    store.library.add(file('f1', 'p1', 'a.pdf'));
    expect(store.library.replacePages('f1', [{ page: 1, text: '城市热岛效应研究' }], { status: 'ok', pages: 1, message: null, sha256: 'sha-f1' })).toBe(true);
    expect(ftsCount('热岛效应')).toBe(1);
    store.projects.delete('p1');
    expect(store.tasks.get('t1')?.project_id).toBeNull();
    expect(store.library.byId('f1')).toBeUndefined();
    expect(ftsCount('热岛效应')).toBe(0);
  });

  it('filters tasks by project and by none, and moves a task in and out', () => {
    store.projects.create({ id: 'p1', name: 'Heat' });
    store.tasks.create({ id: 't1', mode: 'general', title: '', description: '', model: null, project_id: 'p1' });
    store.tasks.create({ id: 't2', mode: 'general', title: '', description: '', model: null });
    expect(store.tasks.list({ project_id: 'p1' }).map((t) => t.id)).toEqual(['t1']);
    expect(store.tasks.list({ project_id: 'none' }).map((t) => t.id)).toEqual(['t2']);
    store.tasks.update('t2', { project_id: 'p1' });
    expect(store.tasks.list({ project_id: 'p1' })).toHaveLength(2);
    store.tasks.update('t2', { title: 'kept' });
    expect(store.tasks.get('t2')?.project_id).toBe('p1');
    store.tasks.update('t2', { project_id: null });
    expect(store.tasks.list({ project_id: 'none' }).map((t) => t.id)).toEqual(['t2']);
  });
});

describe('library repo', () => {
  it('one path per library (the personal library included), the same path in two libraries', () => {
    store.projects.create({ id: 'p1', name: 'Heat' });
    store.library.add(file('f1', null, 'cv.pdf'));
    store.library.add(file('f2', 'p1', 'cv.pdf'));
    expect(() => store.library.add(file('f3', null, 'cv.pdf'))).toThrow(/already has cv.pdf/u);
    expect(store.library.list(null).map((f) => f.id)).toEqual(['f1']);
    expect(store.library.findBySha('p1', 'sha-f2')?.id).toBe('f2');
    expect(store.library.findBySha(null, 'sha-f2')).toBeUndefined();
  });

  it('replaces pages in one transaction and refuses a result for bytes that changed meanwhile', () => {
    store.library.add(file('f1', null, 'a.pdf'));
    store.library.replacePages('f1', [{ page: 1, text: 'retrieval augmented generation' }, { page: 2, text: 'second page' }], { status: 'ok', pages: 2, message: null, sha256: 'sha-f1' });
    expect(store.library.progress(null)).toEqual({ total_files: 1, queued_files: 0, indexed_pages: 2, embedded_pages: 0 });
    store.library.changed('f1', { size: 11, mtime_ms: 6, sha256: 'sha-new' });
    expect(store.library.byId('f1')?.status).toBe('pending');
    expect(store.library.progress(null).queued_files).toBe(1);
    // An extraction of the old bytes finishing late writes nothing; the old pages stay until replaced.
    expect(store.library.replacePages('f1', [{ page: 1, text: 'stale' }], { status: 'ok', pages: 1, message: null, sha256: 'sha-f1' })).toBe(false);
    expect(ftsCount('stale')).toBe(0);
    expect(ftsCount('augmented')).toBe(1);
    expect(store.library.replacePages('f1', [{ page: 1, text: 'fresh text only' }], { status: 'ok', pages: 1, message: null, sha256: 'sha-new' })).toBe(true);
    expect(ftsCount('augmented')).toBe(0);
    expect(store.library.pages('f1')).toEqual([{ page: 1, text: 'fresh text only' }]);
    // Changed back to the bytes already indexed: no extraction needed.
    store.library.changed('f1', { size: 11, mtime_ms: 7, sha256: 'sha-new' });
    expect(store.library.byId('f1')?.status).toBe('ok');
    expect(store.library.delete(null, 'a.pdf')).toBe(true);
    expect(ftsCount('fresh')).toBe(0);
    expect(store.library.replacePages('f1', [{ page: 1, text: 'ghost' }], { status: 'ok', pages: 1, message: null, sha256: 'sha-new' })).toBe(false);
  });
});
