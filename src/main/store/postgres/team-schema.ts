// The team service's own tables, written once, in PostgreSQL's dialect. Migration 8
// (../migrations.ts) creates them in both dialects: this text on PostgreSQL, and on SQLite the text
// teamSchemaForSqlite derives from it (so use only the types it maps: BIGINT, BIGSERIAL PRIMARY KEY,
// DOUBLE PRECISION, JSONB, BOOLEAN NOT NULL DEFAULT FALSE). A store opened with openPgStore has them;
// a test with a bare database may still create them from here. Times are ms since the epoch.
export const TEAM_SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS tenants (
  id TEXT PRIMARY KEY,
  created_at BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS users (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, id)
);
-- Append-only: rows are inserted, never updated or deleted (the usage report sums them).
CREATE TABLE IF NOT EXISTS usage_events (
  id BIGSERIAL PRIMARY KEY,
  tenant_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  task_id TEXT,
  run_id TEXT,
  kind TEXT NOT NULL CHECK (kind IN ('tokens', 'storage', 'upload', 'run')),
  prompt_tokens BIGINT NOT NULL DEFAULT 0,
  completion_tokens BIGINT NOT NULL DEFAULT 0,
  cost DOUBLE PRECISION NOT NULL DEFAULT 0,
  bytes BIGINT NOT NULL DEFAULT 0,
  at BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS usage_events_tenant_at ON usage_events (tenant_id, at);
-- Per-tenant limits; NULL means the server's default (flags / environment).
CREATE TABLE IF NOT EXISTS quotas (
  tenant_id TEXT PRIMARY KEY,
  max_concurrent_runs INTEGER,
  tokens_per_month BIGINT,
  storage_bytes BIGINT,
  upload_bytes BIGINT,
  requests_per_minute INTEGER,
  updated_at BIGINT NOT NULL
);
-- Every event of a run, so a subscriber on any worker replays from Last-Event-ID.
CREATE TABLE IF NOT EXISTS run_events (
  run_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  tenant_id TEXT NOT NULL,
  task_id TEXT NOT NULL,
  event JSONB NOT NULL,
  PRIMARY KEY (run_id, seq)
);
-- Which worker owns a live run; a lease not renewed by expires_at is dead.
CREATE TABLE IF NOT EXISTS run_leases (
  run_id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL,
  task_id TEXT NOT NULL,
  worker_id TEXT NOT NULL,
  heartbeat_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS run_leases_expires ON run_leases (expires_at);
-- Approval decisions no live run has taken yet (its worker died, or it had not asked yet): the next
-- run of the task that waits for the call takes the row, on whichever worker it runs.
CREATE TABLE IF NOT EXISTS approval_decisions (
  tenant_id TEXT NOT NULL,
  task_id TEXT NOT NULL,
  call_id TEXT NOT NULL,
  decision JSONB NOT NULL,
  at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, task_id, call_id)
);
CREATE TABLE IF NOT EXISTS workers (
  id TEXT PRIMARY KEY,
  started_at BIGINT NOT NULL,
  heartbeat_at BIGINT NOT NULL,
  draining BOOLEAN NOT NULL DEFAULT FALSE
);
`;

/** The team tables that hold a task's content without a foreign key to it (deleted with the task). */
export const TASK_TRACE_TABLES = ['run_events', 'run_leases', 'approval_decisions', 'task_retention'] as const;

// Migration 10, in the same dialect rules as TEAM_SCHEMA_SQL: tenants get a status and a plan; a
// plan's retention; audit events for data leaving the service; the request-rate buckets every worker
// shares; a monthly money budget beside the token quota.
export const TEAM_SCHEMA_V10_SQL = `
ALTER TABLE tenants ADD COLUMN status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended'));
ALTER TABLE tenants ADD COLUMN status_reason TEXT;
ALTER TABLE tenants ADD COLUMN plan TEXT NOT NULL DEFAULT 'default';
-- Retention per plan, in days; NULL keeps forever.
CREATE TABLE IF NOT EXISTS plans (
  id TEXT PRIMARY KEY,
  archive_after_days INTEGER,
  purge_files_after_days INTEGER,
  updated_at BIGINT NOT NULL
);
-- Append-only: one row per request that left the service (the platform ships them to its SIEM).
CREATE TABLE IF NOT EXISTS audit_events (
  id BIGSERIAL PRIMARY KEY,
  tenant_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  task_id TEXT,
  run_id TEXT,
  kind TEXT NOT NULL,
  host TEXT NOT NULL,
  bytes_out BIGINT NOT NULL DEFAULT 0,
  bytes_in BIGINT NOT NULL DEFAULT 0,
  status INTEGER,
  at BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS audit_events_tenant_id ON audit_events (tenant_id, id);
-- One request-rate bucket per tenant, shared by every worker.
CREATE TABLE IF NOT EXISTS rate_buckets (
  tenant_id TEXT PRIMARY KEY,
  tokens DOUBLE PRECISION NOT NULL,
  refilled_at BIGINT NOT NULL
);
ALTER TABLE quotas ADD COLUMN cost_per_month DOUBLE PRECISION;
`;

// Migration 11: what each usage row cost the platform (a model the operator offers, paid with the
// operator's key), which a tenant's monthly money budget (`cost_per_month`) is measured against.
export const TEAM_SCHEMA_V11_SQL = `
ALTER TABLE usage_events ADD COLUMN platform_cost DOUBLE PRECISION NOT NULL DEFAULT 0;
`;

// Migration 12: which tasks retention archived (idle longer than their plan allows) and when their
// files were removed. A task used again after archived_at is active again (its row is dropped).
export const TEAM_SCHEMA_V12_SQL = `
CREATE TABLE IF NOT EXISTS task_retention (
  tenant_id TEXT NOT NULL,
  task_id TEXT NOT NULL,
  archived_at BIGINT NOT NULL,
  files_purged_at BIGINT,
  PRIMARY KEY (tenant_id, task_id)
);
`;

// Migration 13: a run's events are stored in batches, one row per run per write of the owning worker
// (`seq` its first event, `last_seq` its last, `events` their JSON array as text, `ended` when it
// holds the run's final event): a stream of thousands of deltas a second costs one small insert per
// write instead of a row, a JSONB value and an index entry per delta. Rows of a run never overlap:
// each writer stores its run's events in order, and a sweeper appends after the highest `last_seq`.
// Idempotent on PostgreSQL (tests apply it over TEAM_SCHEMA_SQL more than once); SQLite never held
// run events, so its table is recreated.
export const TEAM_SCHEMA_V13_SQL = `
ALTER TABLE run_events ADD COLUMN IF NOT EXISTS last_seq INTEGER;
ALTER TABLE run_events ADD COLUMN IF NOT EXISTS events TEXT;
ALTER TABLE run_events ADD COLUMN IF NOT EXISTS ended BOOLEAN NOT NULL DEFAULT FALSE;
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM information_schema.columns WHERE table_name = 'run_events' AND column_name = 'event' AND table_schema = current_schema()) THEN
    UPDATE run_events SET last_seq = seq, events = '[' || event::text || ']', ended = (event->>'type' = 'run_finished');
    ALTER TABLE run_events DROP COLUMN event;
  END IF;
END
$$;
ALTER TABLE run_events ALTER COLUMN last_seq SET NOT NULL;
ALTER TABLE run_events ALTER COLUMN events SET NOT NULL;
`;

export const TEAM_SCHEMA_V13_SQLITE = `
DROP TABLE run_events;
CREATE TABLE run_events (
  run_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  last_seq INTEGER NOT NULL,
  tenant_id TEXT NOT NULL,
  task_id TEXT NOT NULL,
  events TEXT NOT NULL,
  ended BOOLEAN NOT NULL DEFAULT FALSE,
  PRIMARY KEY (run_id, seq)
);
`;
