// Settings on PostgreSQL: JSON values under string keys, one set per tenant (../settings-repo.ts).
import type { SettingsRepo } from '../index';
import type { AsyncRepo, Scope } from '../port';
import type { Sql } from './sql';

export function pgSettingsRepo(sql: Sql, scope: Scope): AsyncRepo<SettingsRepo> {
  const tenant = scope.tenant_id;
  return {
    async get<T>(key: string): Promise<T | undefined> {
      const [row] = await sql.rows<{ value: string }>('SELECT value FROM settings WHERE tenant_id = $1 AND key = $2', [tenant, key]);
      return row === undefined ? undefined : (JSON.parse(row.value) as T);
    },
    async set(key, value) {
      if (value === undefined) await sql.run('DELETE FROM settings WHERE tenant_id = $1 AND key = $2', [tenant, key]);
      else {
        await sql.run(
          'INSERT INTO settings (tenant_id, key, value) VALUES ($1, $2, $3) ON CONFLICT (tenant_id, key) DO UPDATE SET value = excluded.value',
          [tenant, key, JSON.stringify(value)],
        );
      }
    },
  };
}
