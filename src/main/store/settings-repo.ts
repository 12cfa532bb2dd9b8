// App settings as JSON values under string keys.
import type Database from 'better-sqlite3';

export interface SettingsRepo {
  /** The stored value, unchecked: callers validate it (e.g. with the contract's zod schema). */
  get<T>(key: string): T | undefined;
  /** undefined removes the key. */
  set(key: string, value: unknown): void;
}

export function createSettingsRepo(db: Database.Database): SettingsRepo {
  const select = db.prepare<[string], string>('SELECT value FROM settings WHERE key = ?').pluck();
  const upsert = db.prepare<[string, string]>(
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (tenant_id, key) DO UPDATE SET value = excluded.value',
  );
  const remove = db.prepare<[string]>('DELETE FROM settings WHERE key = ?');
  return {
    get<T>(key: string): T | undefined {
      const json = select.get(key);
      return json === undefined ? undefined : (JSON.parse(json) as T);
    },
    set(key, value) {
      if (value === undefined) remove.run(key);
      else upsert.run(key, JSON.stringify(value));
    },
  };
}
