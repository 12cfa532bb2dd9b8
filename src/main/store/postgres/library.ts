// Library files and pages on PostgreSQL: what ../library-repo.ts states, per tenant. Search and
// vectors are in library-search.ts (pg_trgm-backed where the extension could be installed).
import { FolioError } from '../../../shared/errors';
import type { IndexProgress } from '../../../shared/contract/projects';
import type { LibraryFileRow, LibraryRepo, PageText } from '../index';
import type { AsyncRepo, Scope } from '../port';
import { pgLibrarySearch, type TrigramCheck } from './library-search';
import { pgCode, type Sql, UNIQUE_VIOLATION } from './sql';

const FILE_COLUMNS = 'id, project_id, path, size, mtime_ms, sha256, status, pages, message, indexed_sha256, created_at, updated_at';
/** The tenant's ($1) library $2, NULL meaning the personal one. */
const IN_LIBRARY = 'tenant_id = $1 AND project_id IS NOT DISTINCT FROM $2';

/** PostgreSQL text cannot hold U+0000, which PDF extraction sometimes yields; it carries no meaning in a page. */
function withoutNul(text: string): string {
  return text.includes('\u0000') ? text.replaceAll('\u0000', '') : text;
}

export function pgLibraryRepo(sql: Sql, scope: Scope, now: () => number, hasTrigramIndex: TrigramCheck): AsyncRepo<LibraryRepo> {
  const tenant = scope.tenant_id;
  const files = async (where: string, values: unknown[], tail = ''): Promise<LibraryFileRow[]> =>
    sql.rows<LibraryFileRow>(`SELECT ${FILE_COLUMNS} FROM library_files WHERE ${where} ${tail}`, [tenant, ...values]);
  const first = async (where: string, values: unknown[], tail = ''): Promise<LibraryFileRow | undefined> => (await files(where, values, tail))[0];

  return {
    async add(file) {
      const at = now();
      let rows: LibraryFileRow[];
      try {
        rows = await sql.atomic((tx) =>
          tx.rows<LibraryFileRow>(
            `INSERT INTO library_files (tenant_id, id, project_id, path, size, mtime_ms, sha256, status, created_at, updated_at)
             SELECT $1, $2, $3, $4, $5, $6, $7, 'pending', $8, $8
             WHERE $3::text IS NULL OR EXISTS (SELECT 1 FROM projects p WHERE p.id = $3 AND p.tenant_id = $1)
             RETURNING ${FILE_COLUMNS}`,
            [tenant, file.id, file.project_id, file.path, file.size, file.mtime_ms, file.sha256, at],
          ),
        );
      } catch (err) {
        if (pgCode(err) === UNIQUE_VIOLATION) throw new FolioError('conflict', `The library already has ${file.path}`, { cause: err });
        throw err;
      }
      // Another tenant's project is an unknown one, which SQLite reports through the same constraint error.
      if (rows.length === 0) throw new FolioError('conflict', `The library already has ${file.path}`);
      return rows[0];
    },
    get: (projectId, path) => first(`${IN_LIBRARY} AND path = $3`, [projectId, path]),
    byId: (id) => first('tenant_id = $1 AND id = $2', [id]),
    list: (projectId) => files(IN_LIBRARY, [projectId], 'ORDER BY path COLLATE "C"'),
    all: () => files('tenant_id = $1', [], 'ORDER BY created_at, id COLLATE "C"'),
    findBySha: (projectId, sha256) => first(`${IN_LIBRARY} AND sha256 = $3`, [projectId, sha256], 'ORDER BY created_at LIMIT 1'),
    queued: () => files("tenant_id = $1 AND status IN ('pending', 'indexing')", [], 'ORDER BY created_at, id COLLATE "C"'),
    async changed(id, stat) {
      // Bytes the stored pages already come from (a file changed and changed back) need no extraction.
      await sql.run(
        `UPDATE library_files SET size = $3, mtime_ms = $4, sha256 = $5, updated_at = $6,
           status = CASE WHEN indexed_sha256 IS NOT DISTINCT FROM $5 AND status NOT IN ('pending', 'indexing') THEN status ELSE 'pending' END
         WHERE tenant_id = $1 AND id = $2`,
        [tenant, id, stat.size, stat.mtime_ms, stat.sha256, now()],
      );
    },
    async touched(id, mtimeMs) {
      await sql.run('UPDATE library_files SET mtime_ms = $3 WHERE tenant_id = $1 AND id = $2', [tenant, id, mtimeMs]);
    },
    async setStatus(id, status) {
      await sql.run('UPDATE library_files SET status = $3, updated_at = $4 WHERE tenant_id = $1 AND id = $2', [tenant, id, status, now()]);
    },
    replacePages: (id, pages, result) =>
      sql.atomic(async (tx) => {
        // Checked inside the transaction: a file deleted or changed while it was extracted keeps no stale pages.
        const changed = await tx.run(
          `UPDATE library_files SET status = $3, pages = $4, message = $5, indexed_sha256 = $6, updated_at = $7
           WHERE tenant_id = $1 AND id = $2 AND sha256 = $6`,
          [tenant, id, result.status, result.pages, result.message, result.sha256, now()],
        );
        if (changed === 0) return false;
        await tx.run('DELETE FROM library_pages WHERE file_id = $1', [id]);
        if (pages.length > 0) {
          await tx.run('INSERT INTO library_pages (file_id, page, text) SELECT $1, * FROM unnest($2::integer[], $3::text[])', [
            id,
            pages.map((p) => p.page),
            pages.map((p) => withoutNul(p.text)),
          ]);
        }
        return true;
      }),
    pages: (id) =>
      sql.rows<PageText>(
        'SELECT p.page, p.text FROM library_pages p JOIN library_files f ON f.id = p.file_id WHERE f.tenant_id = $1 AND p.file_id = $2 ORDER BY p.page',
        [tenant, id],
      ),
    async delete(projectId, path) {
      return (await sql.run(`DELETE FROM library_files WHERE ${IN_LIBRARY} AND path = $3`, [tenant, projectId, path])) > 0;
    },
    async progress(projectId) {
      const [row] = await sql.rows<IndexProgress>(
        `SELECT
           (SELECT count(*) FROM library_files WHERE ${IN_LIBRARY})::integer AS total_files,
           (SELECT count(*) FROM library_files WHERE ${IN_LIBRARY} AND status IN ('pending', 'indexing'))::integer AS queued_files,
           count(p.id)::integer AS indexed_pages,
           count(p.embedding)::integer AS embedded_pages
         FROM library_pages p JOIN library_files f ON f.id = p.file_id WHERE f.tenant_id = $1 AND f.project_id IS NOT DISTINCT FROM $2`,
        [tenant, projectId],
      );
      return row;
    },
    async fileCount(projectId) {
      const [row] = await sql.rows<{ n: number }>(`SELECT count(*)::integer AS n FROM library_files WHERE ${IN_LIBRARY}`, [tenant, projectId]);
      return row.n;
    },
    ...pgLibrarySearch(sql, scope, hasTrigramIndex),
  };
}
