import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FolioError } from '../../shared/errors';
import { openStore, type Store } from './index';
import type { StorePort } from './port';
import { sqliteDatabase, sqlitePort } from './sqlite-port';
import { makeTempDir } from './test-helpers';

let temp: ReturnType<typeof makeTempDir>;
let store: Store;
let port: StorePort;

beforeEach(() => {
  temp = makeTempDir();
  store = openStore(temp.dbPath);
  port = sqlitePort(store);
});
afterEach(() => {
  store.close();
  temp.cleanup();
});

const newTask = (p: StorePort, id: string) => p.tasks.create({ id, mode: 'general', title: id, description: '', model: null });

describe('sqlitePort', () => {
  it('answers every repository method with a promise of the sync result, and a sync throw as a rejection', async () => {
    const created = await newTask(port, 't1');
    expect(await port.tasks.get('t1')).toEqual(created);
    expect(store.tasks.get('t1')).toEqual(created);
    await expect(port.tasks.update('missing', { title: 'x' })).rejects.toMatchObject({ code: 'not_found' });
    expect(port.dialect).toBe('sqlite');
    expect(port.scope).toEqual({ tenant_id: 'local', user_id: 'local' });
  });

  it('commits a transaction whose function resolves', async () => {
    const out = await port.transaction(async (tx) => {
      await newTask(tx, 't1');
      await tx.tasks.update('t1', { title: 'renamed' });
      return 'ok';
    });
    expect(out).toBe('ok');
    expect(store.db.inTransaction).toBe(false);
    expect(store.tasks.get('t1')?.title).toBe('renamed');
  });

  it('rolls back everything when the function throws, and rethrows', async () => {
    await expect(
      port.transaction(async (tx) => {
        await newTask(tx, 't1');
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(store.db.inTransaction).toBe(false);
    expect(store.tasks.get('t1')).toBeUndefined();
  });

  it('nests as savepoints: an inner throw undoes only the inner work', async () => {
    await port.transaction(async (tx) => {
      await newTask(tx, 'outer');
      await expect(
        tx.transaction(async (inner) => {
          await newTask(inner, 'inner');
          throw new Error('inner failed');
        }),
      ).rejects.toThrow('inner failed');
      await tx.transaction(async (inner) => newTask(inner, 'kept'));
    });
    expect(store.tasks.get('outer')).toBeDefined();
    expect(store.tasks.get('inner')).toBeUndefined();
    expect(store.tasks.get('kept')).toBeDefined();
  });

  it('an outer throw undoes a committed savepoint too', async () => {
    await expect(
      port.transaction(async (tx) => {
        await tx.transaction(async (inner) => newTask(inner, 'inner'));
        throw new Error('outer failed');
      }),
    ).rejects.toThrow('outer failed');
    expect(store.tasks.get('inner')).toBeUndefined();
  });

  it('serialises two concurrent transactions: the second starts after the first commits', async () => {
    const order: string[] = [];
    let releaseFirst!: () => void;
    const firstMayFinish = new Promise<void>((resolve) => (releaseFirst = resolve));
    const first = port.transaction(async (tx) => {
      order.push('first begins');
      await newTask(tx, 'a');
      await firstMayFinish;
      order.push('first ends');
    });
    const second = port.transaction(async (tx) => {
      order.push('second begins');
      // The first one's task is committed by the time this one runs.
      expect(await tx.tasks.get('a')).toBeDefined();
      await newTask(tx, 'b');
      order.push('second ends');
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['first begins']);
    releaseFirst();
    await Promise.all([first, second]);
    expect(order).toEqual(['first begins', 'first ends', 'second begins', 'second ends']);
    expect(store.tasks.list().map((t) => t.id).sort()).toEqual(['a', 'b']);
  });

  it('a failed transaction does not block the next one', async () => {
    await expect(port.transaction(() => Promise.reject(new Error('no')))).rejects.toThrow('no');
    await port.transaction(async (tx) => newTask(tx, 'after'));
    expect(store.tasks.get('after')).toBeDefined();
  });

  it('gives the raw database to SQLite-only features, from the port or a transaction port', async () => {
    expect(sqliteDatabase(port)).toBe(store.db);
    await port.transaction(async (tx) => expect(sqliteDatabase(tx)).toBe(store.db));
    const postgres = { ...port, dialect: 'postgres' } as StorePort;
    expect(() => sqliteDatabase(postgres)).toThrow(FolioError);
    expect(() => sqliteDatabase(postgres)).toThrow(/not available on PostgreSQL/);
  });
});
