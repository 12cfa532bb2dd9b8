// A test database with the team tables (every migration of them), plus the few `runs` columns the live-run counter reads,
// until migration 8 creates the real ones.
import pg from 'pg';
import { createTestDatabase } from '../../../testing/postgres/test-database';
import { TEAM_SCHEMA_SQL, TEAM_SCHEMA_V10_SQL, TEAM_SCHEMA_V11_SQL } from '../store/postgres/team-schema';

export const MINIMAL_RUNS_SQL = `
CREATE TABLE IF NOT EXISTS runs (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL,
  status TEXT NOT NULL
);`;

export interface TeamTestDatabase {
  url: string;
  pool: pg.Pool;
  close(): Promise<void>;
}

export async function createTeamTestDatabase(): Promise<TeamTestDatabase> {
  const db = await createTestDatabase();
  const pool = new pg.Pool({ connectionString: db.url, max: 4 });
  // The team tables as the migrations leave them (quotas.cost_per_month, usage_events.platform_cost).
  for (const sql of [TEAM_SCHEMA_SQL, TEAM_SCHEMA_V10_SQL, TEAM_SCHEMA_V11_SQL]) await pool.query(sql);
  await pool.query(MINIMAL_RUNS_SQL);
  return {
    url: db.url,
    pool,
    async close() {
      await pool.end();
      await db.drop();
    },
  };
}
