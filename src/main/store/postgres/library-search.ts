// Library search on PostgreSQL (the team service): pages containing each term as a substring,
// `ILIKE '%term%'` (or LIKE for a term without cased letters, e.g. CJK: the same matches, no case
// folding of the pages), which the pg_trgm GIN index on library_pages.text (migration 7) answers for
// terms of 3+ characters; shorter ones (检索, 模型) have no trigram and are checked on the index's
// candidates, or alone by scanning the scope's pages, as on SQLite. Pages are ranked by BM25 over
// occurrence counts PostgreSQL works out (library-match.ts: the formula SQLite's short-term scan
// uses), at most SCAN_LIMIT matching pages read per query. Without pg_trgm (a managed server whose
// role may not create it) the same query scans every page of the scope: slower, never wrong; the
// first search says so once in the log.
import { isTrigramTerm, likeContains, rankScanned, SCAN_LIMIT } from '../library-match';
import type { FoundPage, LibraryRepo, PageToEmbed, PageVector, SearchScope } from '../library-repo';
import type { AsyncRepo, Scope } from '../port';
import type { Sql } from './sql';

type SearchMethods = Pick<AsyncRepo<LibraryRepo>, 'matchPages' | 'pagesWithVectors' | 'foundPages' | 'pagesToEmbed' | 'storeVectors'>;

/** Whether the trigram index exists, asked once per backend; a warning is logged the first time it does not. */
export type TrigramCheck = () => Promise<boolean>;

export const NO_TRIGRAM_WARNING =
  '[folio] library search: pg_trgm is not installed in this database (creating the extension needs a role allowed to), so searches scan every page of a library (ILIKE without an index); results are the same, only slower on large libraries. Run `CREATE EXTENSION pg_trgm; CREATE INDEX library_pages_trgm ON library_pages USING gin (text gin_trgm_ops);` as a privileged role to speed them up.';

export function trigramCheck(sql: Sql, warn: (line: string) => void = (line) => console.warn(line)): TrigramCheck {
  let known: Promise<boolean> | null = null;
  return () => {
    known ??= sql
      .rows<{ n: number }>("SELECT count(*)::integer AS n FROM pg_indexes WHERE tablename = 'library_pages' AND indexname = 'library_pages_trgm'")
      .then(([row]) => {
        const present = (row?.n ?? 0) > 0;
        if (!present) warn(NO_TRIGRAM_WARNING);
        return present;
      })
      .catch((err: unknown) => {
        known = null;
        throw err;
      });
    return known;
  };
}

/** Whether case folding can change what matches: the term has a letter with an upper and a lower case. */
function isCased(term: string): boolean {
  return term.toLowerCase() !== term.toUpperCase();
}

/** The tenant's ($1) libraries of the scope: projects $2, the personal one when $3. */
const IN_SCOPE = 'f.tenant_id = $1 AND (f.project_id = ANY($2::text[]) OR ($3::boolean AND f.project_id IS NULL))';

function scopeValues(tenant: string, scope: SearchScope): unknown[] {
  return [tenant, [...scope.projects], scope.personal];
}

export function pgLibrarySearch(sql: Sql, scope: Scope, hasTrigramIndex: TrigramCheck): SearchMethods {
  const tenant = scope.tenant_id;
  return {
    async matchPages(searchScope, terms, op, limit) {
      if (terms.length === 0) return [];
      const indexed = await hasTrigramIndex();
      const values = scopeValues(tenant, searchScope);
      const param = (value: unknown) => `$${values.push(value)}`;
      // A term without cased letters (CJK, digits, most symbols) matches the same with LIKE, which
      // skips ILIKE's folding of every page's text (twice as fast on a scan); others fold both sides.
      const matches = terms.map((term) => `p.text ${isCased(term) ? 'ILIKE' : 'LIKE'} ${param(likeContains(term))} ESCAPE '\\'`);
      const counts = terms.map((term, i) => {
        const t = param(term);
        // Bytes removed over the term's bytes: the exact count, without walking the text for characters.
        const text = isCased(term) ? 'folded' : 'text';
        const needle = isCased(term) ? `lower(${t}::text)` : `${t}::text`;
        return `(octet_length(${text}) - octet_length(replace(${text}, ${needle}, ''))) / octet_length(${needle}) AS c${i}`;
      });
      // Nested so each matched page is decompressed (TOAST) and case-folded once, not once per use.
      const query = `SELECT id, length(text) AS len, ${counts.join(', ')} FROM (
          SELECT id, text, ${terms.some(isCased) ? 'lower(text)' : "''"} AS folded FROM (
            SELECT p.id, p.text || '' AS text FROM library_pages p JOIN library_files f ON f.id = p.file_id
             WHERE ${IN_SCOPE} AND (${matches.join(op === 'all' ? ' AND ' : ' OR ')})
             LIMIT ${param(SCAN_LIMIT)}
          ) matched OFFSET 0
        ) pages`;
      const usesIndex = indexed && (op === 'all' ? terms.some(isTrigramTerm) : terms.every(isTrigramTerm));
      const rows = usesIndex
        ? await sql.atomic(async (tx) => {
            // Page texts are TOASTed, so the planner prices a scan of library_pages as tiny and
            // picks it over the trigram index: 90 ms instead of 3 on 5,000 pages (bench/README.md).
            // Only for this statement's transaction (inside a caller's it lasts until that one ends;
            // none searches inside one), and only where a trigram can be looked up.
            await tx.run('SET LOCAL enable_seqscan = off');
            return tx.rows<Record<string, number>>(query, values);
          })
        : await sql.rows<Record<string, number>>(query, values);
      return rankScanned(rows, terms.length, limit);
    },
    pagesWithVectors(searchScope, model) {
      return sql.rows<PageVector>(
        `SELECT p.id, p.embedding FROM library_pages p JOIN library_files f ON f.id = p.file_id
          WHERE ${IN_SCOPE} AND p.embedding_model = $4 AND p.embedding IS NOT NULL`,
        [...scopeValues(tenant, searchScope), model],
      );
    },
    async foundPages(ids) {
      if (ids.length === 0) return [];
      return sql.rows<FoundPage>(
        `SELECT p.id, f.project_id, f.path, p.page, p.text FROM library_pages p JOIN library_files f ON f.id = p.file_id
          WHERE f.tenant_id = $1 AND p.id = ANY($2::bigint[])`,
        [tenant, [...ids]],
      );
    },
    pagesToEmbed(model, after, n) {
      return sql.rows<PageToEmbed>(
        `SELECT p.id, p.text FROM library_pages p JOIN library_files f ON f.id = p.file_id
          WHERE f.tenant_id = $1 AND p.id > $2 AND (p.embedding IS NULL OR p.embedding_model IS DISTINCT FROM $3) AND length(trim(p.text)) > 0
          ORDER BY p.id LIMIT $4`,
        [tenant, after, model, n],
      );
    },
    async storeVectors(model, vectors) {
      if (vectors.length === 0) return 0;
      // Only where the text is still what was embedded: a page re-extracted meanwhile is embedded next pass.
      return sql.run(
        `UPDATE library_pages p SET embedding = v.embedding, embedding_model = $2
           FROM unnest($3::bigint[], $4::text[], $5::bytea[]) AS v(id, text, embedding), library_files f
          WHERE p.id = v.id AND p.text = v.text AND f.id = p.file_id AND f.tenant_id = $1`,
        [tenant, model, vectors.map((v) => v.id), vectors.map((v) => v.text), vectors.map((v) => Buffer.from(v.embedding.buffer, v.embedding.byteOffset, v.embedding.byteLength))],
      );
    },
  };
}
