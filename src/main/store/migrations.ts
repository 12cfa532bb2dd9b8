// Schema history, one list for both dialects. Each entry runs once: on SQLite it bumps PRAGMA
// user_version, and all pending entries run together in one IMMEDIATE transaction (open-database.ts),
// so a failed migration leaves the file exactly as it was (a backup is taken first); on PostgreSQL
// (postgres/migrate.ts) each entry runs in its own transaction and is recorded in schema_migrations.
// Never edit a shipped entry: add a new one, because existing databases have already run it.
//
// The PostgreSQL side is a translation, not a copy: ms times are BIGINT, flags stay INTEGER 0/1
// (the row converters in rows.ts read them that way), and tables whose SQLite order breaks ties by
// the implicit rowid get an explicit identity column named `rowid`, so the same ORDER BY reads the
// same in both dialects. SQLite's FTS5 library index has no twin (see migration 7).
import { TEAM_SCHEMA_SQL, TEAM_SCHEMA_V10_SQL, TEAM_SCHEMA_V11_SQL, TEAM_SCHEMA_V12_SQL, TEAM_SCHEMA_V13_SQL, TEAM_SCHEMA_V13_SQLITE } from './postgres/team-schema';

export interface Migration {
  version: number;
  /** SQLite's dialect. */
  sql: string;
  /** PostgreSQL's dialect: the same tables, columns and constraints. */
  postgres: string;
}

/** What the SQLite opener needs of a migration (tests build lists of these by hand). */
export type SqliteMigration = Pick<Migration, 'version' | 'sql'>;

/**
 * The team tables are written once, in PostgreSQL's dialect (postgres/team-schema.ts); SQLite's
 * twin is derived from them, so the two cannot drift. Only the types the team schema uses are mapped.
 */
export function teamSchemaForSqlite(pgSql: string = TEAM_SCHEMA_SQL): string {
  return pgSql
    .replace(/\bBIGSERIAL PRIMARY KEY\b/g, 'INTEGER PRIMARY KEY')
    .replace(/\bBIGINT\b/g, 'INTEGER')
    .replace(/\bDOUBLE PRECISION\b/g, 'REAL')
    .replace(/\bJSONB\b/g, 'TEXT')
    .replace(/(\w+) BOOLEAN NOT NULL DEFAULT FALSE\b/g, '$1 INTEGER NOT NULL DEFAULT 0 CHECK ($1 IN (0, 1))')
    .replace(/\n\);/g, '\n) STRICT;');
}

// Migration 8's statements that read the same in both dialects.
const TENANCY_COLUMNS = `
  ALTER TABLE tasks ADD COLUMN tenant_id TEXT NOT NULL DEFAULT 'local';
  ALTER TABLE tasks ADD COLUMN user_id TEXT NOT NULL DEFAULT 'local';
  ALTER TABLE messages ADD COLUMN tenant_id TEXT NOT NULL DEFAULT 'local';
  ALTER TABLE messages ADD COLUMN user_id TEXT NOT NULL DEFAULT 'local';
  ALTER TABLE runs ADD COLUMN tenant_id TEXT NOT NULL DEFAULT 'local';
  ALTER TABLE runs ADD COLUMN user_id TEXT NOT NULL DEFAULT 'local';
  ALTER TABLE files ADD COLUMN tenant_id TEXT NOT NULL DEFAULT 'local';
  ALTER TABLE files ADD COLUMN user_id TEXT NOT NULL DEFAULT 'local';
  ALTER TABLE approvals ADD COLUMN tenant_id TEXT NOT NULL DEFAULT 'local';
  ALTER TABLE approvals ADD COLUMN user_id TEXT NOT NULL DEFAULT 'local';
  ALTER TABLE tool_grants ADD COLUMN tenant_id TEXT NOT NULL DEFAULT 'local';
  ALTER TABLE tool_grants ADD COLUMN user_id TEXT NOT NULL DEFAULT 'local';
  ALTER TABLE projects ADD COLUMN tenant_id TEXT NOT NULL DEFAULT 'local';
  ALTER TABLE library_files ADD COLUMN tenant_id TEXT NOT NULL DEFAULT 'local';`;
// The local tenant and user exist from the start, so desktop rows point at real ones; the indexes
// serve the tenant-scoped queries (a person's task list; the library unique per tenant and library).
const TENANCY_INDEXES = `
  INSERT INTO tenants (id, created_at) VALUES ('local', 0) ON CONFLICT DO NOTHING;
  INSERT INTO users (tenant_id, id, created_at) VALUES ('local', 'local', 0) ON CONFLICT DO NOTHING;
  CREATE INDEX tasks_by_owner ON tasks (tenant_id, user_id, updated_at DESC);
  CREATE INDEX runs_running_by_tenant ON runs (tenant_id, user_id) WHERE status = 'running';
  CREATE INDEX projects_by_tenant ON projects (tenant_id, archived, updated_at DESC);
  DROP INDEX library_files_by_path;
  CREATE UNIQUE INDEX library_files_by_path ON library_files (tenant_id, coalesce(project_id, ''), path);
  CREATE INDEX library_files_by_tenant ON library_files (tenant_id, created_at);`;

export const migrations: readonly Migration[] = [
  {
    version: 1,
    // STRICT tables make SQLite reject a value of the wrong type instead of silently storing it.
    sql: `
      CREATE TABLE tasks (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        description TEXT NOT NULL DEFAULT '',
        mode TEXT NOT NULL CHECK (mode IN ('ppt', 'proposal', 'coding', 'general')),
        status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'completed', 'abandoned')),
        model TEXT,
        approval_mode TEXT NOT NULL DEFAULT 'ask' CHECK (approval_mode IN ('ask', 'auto-edit', 'auto')),
        workspace_path TEXT,
        materialized INTEGER NOT NULL DEFAULT 0 CHECK (materialized IN (0, 1)),
        prompt_tokens INTEGER NOT NULL DEFAULT 0,
        completion_tokens INTEGER NOT NULL DEFAULT 0,
        cost REAL NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX tasks_by_updated ON tasks (updated_at DESC);

      CREATE TABLE runs (
        id TEXT PRIMARY KEY,
        task_id TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
        status TEXT NOT NULL DEFAULT 'running'
          CHECK (status IN ('running', 'done', 'cancelled', 'failed', 'interrupted')),
        model TEXT,
        started_at INTEGER NOT NULL,
        finished_at INTEGER,
        error TEXT,
        prompt_tokens INTEGER NOT NULL DEFAULT 0,
        completion_tokens INTEGER NOT NULL DEFAULT 0,
        cost REAL NOT NULL DEFAULT 0,
        state TEXT
      ) STRICT;
      CREATE INDEX runs_by_task ON runs (task_id, started_at);
      CREATE INDEX runs_running ON runs (status) WHERE status = 'running';

      CREATE TABLE messages (
        id TEXT PRIMARY KEY,
        task_id TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
        run_id TEXT,
        seq INTEGER NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'tool', 'system')),
        content TEXT NOT NULL,
        reasoning TEXT,
        tool_calls TEXT,
        tool_call_id TEXT,
        name TEXT,
        is_error INTEGER NOT NULL DEFAULT 0 CHECK (is_error IN (0, 1)),
        created_at INTEGER NOT NULL,
        UNIQUE (task_id, seq)
      ) STRICT;
      CREATE INDEX messages_by_tool_call ON messages (task_id, tool_call_id) WHERE tool_call_id IS NOT NULL;

      CREATE TABLE files (
        task_id TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
        path TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('source', 'work', 'artifact')),
        size INTEGER NOT NULL,
        sha256 TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (task_id, path)
      ) STRICT;

      CREATE TABLE approvals (
        run_id TEXT NOT NULL,
        call_id TEXT NOT NULL,
        task_id TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        arguments TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('read', 'edit', 'execute', 'fetch')),
        risk TEXT NOT NULL CHECK (risk IN ('standard', 'destructive')),
        detail TEXT,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (run_id, call_id)
      ) STRICT;
      CREATE INDEX approvals_by_task ON approvals (task_id, created_at);

      CREATE TABLE tool_grants (
        task_id TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
        tool_name TEXT NOT NULL,
        PRIMARY KEY (task_id, tool_name)
      ) STRICT;

      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT;
    `,
    postgres: `
      CREATE TABLE tasks (
        rowid BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        description TEXT NOT NULL DEFAULT '',
        mode TEXT NOT NULL CHECK (mode IN ('ppt', 'proposal', 'coding', 'general')),
        status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'completed', 'abandoned')),
        model TEXT,
        approval_mode TEXT NOT NULL DEFAULT 'ask' CHECK (approval_mode IN ('ask', 'auto-edit', 'auto')),
        workspace_path TEXT,
        materialized INTEGER NOT NULL DEFAULT 0 CHECK (materialized IN (0, 1)),
        prompt_tokens BIGINT NOT NULL DEFAULT 0,
        completion_tokens BIGINT NOT NULL DEFAULT 0,
        cost DOUBLE PRECISION NOT NULL DEFAULT 0,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL
      );
      CREATE INDEX tasks_by_updated ON tasks (updated_at DESC);

      CREATE TABLE runs (
        rowid BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
        id TEXT PRIMARY KEY,
        task_id TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
        status TEXT NOT NULL DEFAULT 'running'
          CHECK (status IN ('running', 'done', 'cancelled', 'failed', 'interrupted')),
        model TEXT,
        started_at BIGINT NOT NULL,
        finished_at BIGINT,
        error TEXT,
        prompt_tokens BIGINT NOT NULL DEFAULT 0,
        completion_tokens BIGINT NOT NULL DEFAULT 0,
        cost DOUBLE PRECISION NOT NULL DEFAULT 0,
        state TEXT
      );
      CREATE INDEX runs_by_task ON runs (task_id, started_at);
      CREATE INDEX runs_running ON runs (status) WHERE status = 'running';

      CREATE TABLE messages (
        id TEXT PRIMARY KEY,
        task_id TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
        run_id TEXT,
        seq INTEGER NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'tool', 'system')),
        content TEXT NOT NULL,
        reasoning TEXT,
        tool_calls TEXT,
        tool_call_id TEXT,
        name TEXT,
        is_error INTEGER NOT NULL DEFAULT 0 CHECK (is_error IN (0, 1)),
        created_at BIGINT NOT NULL,
        UNIQUE (task_id, seq)
      );
      CREATE INDEX messages_by_tool_call ON messages (task_id, tool_call_id) WHERE tool_call_id IS NOT NULL;

      CREATE TABLE files (
        task_id TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
        path TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('source', 'work', 'artifact')),
        size BIGINT NOT NULL,
        sha256 TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        PRIMARY KEY (task_id, path)
      );

      CREATE TABLE approvals (
        rowid BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
        run_id TEXT NOT NULL,
        call_id TEXT NOT NULL,
        task_id TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        arguments TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('read', 'edit', 'execute', 'fetch')),
        risk TEXT NOT NULL CHECK (risk IN ('standard', 'destructive')),
        detail TEXT,
        created_at BIGINT NOT NULL,
        PRIMARY KEY (run_id, call_id)
      );
      CREATE INDEX approvals_by_task ON approvals (task_id, created_at);

      CREATE TABLE tool_grants (
        task_id TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
        tool_name TEXT NOT NULL,
        PRIMARY KEY (task_id, tool_name)
      );

      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
    `,
  },
  {
    version: 2,
    // Grants gain a scope: a code-running tool (shell, run_script) is granted per exact command,
    // never as a whole tool. Existing grants keep scope '' (the whole tool), which the loop only
    // consults for tools that do not run code, so an old "allow shell" grant stops silencing commands.
    sql: `
      CREATE TABLE tool_grants_v2 (
        task_id TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
        tool_name TEXT NOT NULL,
        scope TEXT NOT NULL DEFAULT '',
        PRIMARY KEY (task_id, tool_name, scope)
      ) STRICT;
      INSERT INTO tool_grants_v2 (task_id, tool_name, scope) SELECT task_id, tool_name, '' FROM tool_grants;
      DROP TABLE tool_grants;
      ALTER TABLE tool_grants_v2 RENAME TO tool_grants;
    `,
    postgres: `
      ALTER TABLE tool_grants ADD COLUMN scope TEXT NOT NULL DEFAULT '';
      ALTER TABLE tool_grants DROP CONSTRAINT tool_grants_pkey;
      ALTER TABLE tool_grants ADD PRIMARY KEY (task_id, tool_name, scope);
    `,
  },
  {
    version: 3,
    // The task's "allow network for commands" switch (shell, run_script): off until the person turns
    // it on or approves a command that needs the network.
    sql: `ALTER TABLE tasks ADD COLUMN allow_network INTEGER NOT NULL DEFAULT 0 CHECK (allow_network IN (0, 1));`,
    postgres: `ALTER TABLE tasks ADD COLUMN allow_network INTEGER NOT NULL DEFAULT 0 CHECK (allow_network IN (0, 1));`,
  },
  {
    version: 4,
    // The task's reasoning setting. NULL means "the profile's default", so existing tasks
    // keep behaving exactly as before.
    sql: `ALTER TABLE tasks ADD COLUMN reasoning TEXT CHECK (reasoning IN ('none', 'thinking', 'max'));`,
    postgres: `ALTER TABLE tasks ADD COLUMN reasoning TEXT CHECK (reasoning IN ('none', 'thinking', 'max'));`,
  },
  // Conversation branches
  {
    version: 5,
    // Messages form a tree (regenerate and edit add siblings); `active` marks the task's one active
    // path, so reading the conversation stays a plain indexed range scan. Existing conversations
    // become a single path: each message's parent is the one before it.
    sql: `
      ALTER TABLE messages ADD COLUMN parent_id TEXT REFERENCES messages (id) ON DELETE CASCADE;
      ALTER TABLE messages ADD COLUMN active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1));
      UPDATE messages SET parent_id = (
        SELECT p.id FROM messages p WHERE p.task_id = messages.task_id AND p.seq < messages.seq ORDER BY p.seq DESC LIMIT 1
      );
      CREATE INDEX messages_active_path ON messages (task_id, seq) WHERE active = 1;
      CREATE INDEX messages_by_parent ON messages (task_id, parent_id, seq);
    `,
    postgres: `
      ALTER TABLE messages ADD COLUMN parent_id TEXT REFERENCES messages (id) ON DELETE CASCADE;
      ALTER TABLE messages ADD COLUMN active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1));
      UPDATE messages SET parent_id = (
        SELECT p.id FROM messages p WHERE p.task_id = messages.task_id AND p.seq < messages.seq ORDER BY p.seq DESC LIMIT 1
      );
      CREATE INDEX messages_active_path ON messages (task_id, seq) WHERE active = 1;
      CREATE INDEX messages_by_parent ON messages (task_id, parent_id, seq);
    `,
  },
  {
    version: 6,
    // MCP servers' tools are a kind of their own ('mcp'): the approvals table is rebuilt so its CHECK
    // accepts it (SQLite cannot alter a CHECK), keeping every pending question. Tasks gain the list of
    // MCP servers their runs may use (a JSON array of names; NULL: none).
    sql: `
      CREATE TABLE approvals_v6 (
        run_id TEXT NOT NULL,
        call_id TEXT NOT NULL,
        task_id TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        arguments TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('read', 'edit', 'execute', 'fetch', 'mcp')),
        risk TEXT NOT NULL CHECK (risk IN ('standard', 'destructive')),
        detail TEXT,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (run_id, call_id)
      ) STRICT;
      INSERT INTO approvals_v6 (run_id, call_id, task_id, name, arguments, kind, risk, detail, created_at)
        SELECT run_id, call_id, task_id, name, arguments, kind, risk, detail, created_at FROM approvals;
      DROP TABLE approvals;
      ALTER TABLE approvals_v6 RENAME TO approvals;
      CREATE INDEX approvals_by_task ON approvals (task_id, created_at);
      ALTER TABLE tasks ADD COLUMN mcp_servers TEXT CHECK (mcp_servers IS NULL OR json_valid(mcp_servers));
    `,
    postgres: `
      ALTER TABLE approvals DROP CONSTRAINT approvals_kind_check;
      ALTER TABLE approvals ADD CONSTRAINT approvals_kind_check CHECK (kind IN ('read', 'edit', 'execute', 'fetch', 'mcp'));
      ALTER TABLE tasks ADD COLUMN mcp_servers TEXT CHECK (mcp_servers IS NULL OR jsonb_typeof(mcp_servers::jsonb) IS NOT NULL);
    `,
  },
  {
    version: 7,
    // Projects group tasks (a task keeps living when its project is deleted: SET NULL). Library files
    // belong to a project or, with project_id NULL, to the personal library; the unique index uses
    // coalesce because NULLs are distinct in a plain UNIQUE. Pages hold the extracted text (and an
    // optional embedding); library_fts is an external-content FTS5 index over them with the trigram
    // tokenizer, so CJK text without spaces matches any substring of 3+ characters. Triggers keep the
    // index in step with the pages, so deleting a file (CASCADE to its pages) removes its hits.
    sql: `
      CREATE TABLE projects (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        instructions TEXT NOT NULL DEFAULT '',
        default_model TEXT,
        default_mode TEXT CHECK (default_mode IS NULL OR default_mode IN ('ppt', 'proposal', 'coding', 'general')),
        default_approval_mode TEXT CHECK (default_approval_mode IS NULL OR default_approval_mode IN ('ask', 'auto-edit', 'auto')),
        archived INTEGER NOT NULL DEFAULT 0 CHECK (archived IN (0, 1)),
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
      ALTER TABLE tasks ADD COLUMN project_id TEXT REFERENCES projects (id) ON DELETE SET NULL;
      CREATE INDEX tasks_by_project ON tasks (project_id, updated_at DESC) WHERE project_id IS NOT NULL;

      CREATE TABLE library_files (
        id TEXT PRIMARY KEY,
        project_id TEXT REFERENCES projects (id) ON DELETE CASCADE,
        path TEXT NOT NULL,
        size INTEGER NOT NULL,
        mtime_ms INTEGER NOT NULL,
        sha256 TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'pending'
          CHECK (status IN ('pending', 'indexing', 'ok', 'scanned', 'image', 'error')),
        pages INTEGER,
        message TEXT,
        indexed_sha256 TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
      CREATE UNIQUE INDEX library_files_by_path ON library_files (coalesce(project_id, ''), path);
      CREATE INDEX library_files_queued ON library_files (status) WHERE status IN ('pending', 'indexing');

      CREATE TABLE library_pages (
        id INTEGER PRIMARY KEY,
        file_id TEXT NOT NULL REFERENCES library_files (id) ON DELETE CASCADE,
        page INTEGER NOT NULL,
        text TEXT NOT NULL,
        embedding BLOB,
        embedding_model TEXT,
        UNIQUE (file_id, page)
      ) STRICT;

      CREATE VIRTUAL TABLE library_fts USING fts5(
        text, content = 'library_pages', content_rowid = 'id', tokenize = 'trigram remove_diacritics 1'
      );
      CREATE TRIGGER library_pages_ai AFTER INSERT ON library_pages BEGIN
        INSERT INTO library_fts (rowid, text) VALUES (new.id, new.text);
      END;
      CREATE TRIGGER library_pages_ad AFTER DELETE ON library_pages BEGIN
        INSERT INTO library_fts (library_fts, rowid, text) VALUES ('delete', old.id, old.text);
      END;
      CREATE TRIGGER library_pages_au AFTER UPDATE OF text ON library_pages BEGIN
        INSERT INTO library_fts (library_fts, rowid, text) VALUES ('delete', old.id, old.text);
        INSERT INTO library_fts (rowid, text) VALUES (new.id, new.text);
      END;
    `,
    postgres: `
      CREATE TABLE projects (
        rowid BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        instructions TEXT NOT NULL DEFAULT '',
        default_model TEXT,
        default_mode TEXT CHECK (default_mode IS NULL OR default_mode IN ('ppt', 'proposal', 'coding', 'general')),
        default_approval_mode TEXT CHECK (default_approval_mode IS NULL OR default_approval_mode IN ('ask', 'auto-edit', 'auto')),
        archived INTEGER NOT NULL DEFAULT 0 CHECK (archived IN (0, 1)),
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL
      );
      ALTER TABLE tasks ADD COLUMN project_id TEXT REFERENCES projects (id) ON DELETE SET NULL;
      CREATE INDEX tasks_by_project ON tasks (project_id, updated_at DESC) WHERE project_id IS NOT NULL;

      CREATE TABLE library_files (
        id TEXT PRIMARY KEY,
        project_id TEXT REFERENCES projects (id) ON DELETE CASCADE,
        path TEXT NOT NULL,
        size BIGINT NOT NULL,
        mtime_ms BIGINT NOT NULL,
        sha256 TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'pending'
          CHECK (status IN ('pending', 'indexing', 'ok', 'scanned', 'image', 'error')),
        pages INTEGER,
        message TEXT,
        indexed_sha256 TEXT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL
      );
      CREATE UNIQUE INDEX library_files_by_path ON library_files (coalesce(project_id, ''), path);
      CREATE INDEX library_files_queued ON library_files (status) WHERE status IN ('pending', 'indexing');

      CREATE TABLE library_pages (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        file_id TEXT NOT NULL REFERENCES library_files (id) ON DELETE CASCADE,
        page INTEGER NOT NULL,
        text TEXT NOT NULL,
        embedding BYTEA,
        embedding_model TEXT,
        UNIQUE (file_id, page)
      );

      DO $$
      BEGIN
        IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
          CREATE EXTENSION IF NOT EXISTS pg_trgm;
          CREATE INDEX library_pages_trgm ON library_pages USING gin (text gin_trgm_ops);
        END IF;
      EXCEPTION WHEN insufficient_privilege THEN
        RAISE NOTICE 'pg_trgm not installed (needs a role that may create it): library search scans pages';
      END
      $$;
    `,
  },
  {
    version: 8,
    // Every row of a person's work names its tenant and user (the desktop's are both 'local', the
    // defaults, so existing rows need no backfill); projects and the library are shared within a
    // tenant. Settings become per tenant, so their key gains the tenant (SQLite rebuilds the table to
    // change a primary key). The team tables come from postgres/team-schema.ts.
    sql: `
      ${teamSchemaForSqlite()}
      ${TENANCY_COLUMNS}
      CREATE TABLE settings_v8 (
        tenant_id TEXT NOT NULL DEFAULT 'local',
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (tenant_id, key)
      ) STRICT;
      INSERT INTO settings_v8 (tenant_id, key, value) SELECT 'local', key, value FROM settings;
      DROP TABLE settings;
      ALTER TABLE settings_v8 RENAME TO settings;
      ${TENANCY_INDEXES}
    `,
    postgres: `
      ${TEAM_SCHEMA_SQL}
      ${TENANCY_COLUMNS}
      ALTER TABLE settings ADD COLUMN tenant_id TEXT NOT NULL DEFAULT 'local';
      ALTER TABLE settings DROP CONSTRAINT settings_pkey;
      ALTER TABLE settings ADD PRIMARY KEY (tenant_id, key);
      ${TENANCY_INDEXES}
    `,
  },
  {
    version: 9,
    // Why a pending approval asks, as codes the card puts in the person's language (ApprovalReason).
    sql: `ALTER TABLE approvals ADD COLUMN reasons TEXT CHECK (reasons IS NULL OR json_valid(reasons));`,
    postgres: `ALTER TABLE approvals ADD COLUMN reasons TEXT;`,
  },
  {
    version: 10,
    // Tenant status and plan, retention per plan, audit events, shared rate buckets, money budgets.
    sql: teamSchemaForSqlite(TEAM_SCHEMA_V10_SQL),
    postgres: TEAM_SCHEMA_V10_SQL,
  },
  {
    version: 11,
    // The platform's cost of each usage row, for the monthly money budget.
    sql: teamSchemaForSqlite(TEAM_SCHEMA_V11_SQL),
    postgres: TEAM_SCHEMA_V11_SQL,
  },
  {
    version: 12,
    // Retention per plan: the tasks archived for being idle, and when their files were removed.
    sql: teamSchemaForSqlite(TEAM_SCHEMA_V12_SQL),
    postgres: TEAM_SCHEMA_V12_SQL,
  },
  {
    version: 13,
    // A run's events stored in batches, one row per write (team-schema.ts).
    sql: teamSchemaForSqlite(TEAM_SCHEMA_V13_SQLITE),
    postgres: TEAM_SCHEMA_V13_SQL,
  },
  {
    version: 14,
    // A failed run's error code and class, so its footer explains it in the person's language.
    sql: `ALTER TABLE runs ADD COLUMN error_code TEXT; ALTER TABLE runs ADD COLUMN error_name TEXT;`,
    postgres: `ALTER TABLE runs ADD COLUMN error_code TEXT; ALTER TABLE runs ADD COLUMN error_name TEXT;`,
  },
];

export const latestSchemaVersion = migrations.reduce((max, m) => Math.max(max, m.version), 0);
