// Where a string (a marker, a key) is still held after the fact: every row of every table of the
// team database, as text, and every file under the storage root.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';

/** Every table of the public schema whose rows, as text, contain `needle`: `table: n`. */
export async function tablesHolding(db: pg.ClientBase, needle: string): Promise<string[]> {
  const { rows: tables } = await db.query<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'");
  const found: string[] = [];
  for (const { name } of tables) {
    // BYTEA (embeddings) is text too once cast; the needles are ASCII so they show in either form.
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${name}" x WHERE x::text LIKE $1`, [`%${needle}%`]);
    if (rows[0].n > 0) found.push(`${name}: ${rows[0].n}`);
  }
  return found;
}

/** Every file under root whose bytes contain `needle`, relative to root. */
export function filesHolding(root: string, needle: string, dir = root): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...filesHolding(root, needle, path));
    else if (entry.isFile() && statSync(path).size < 50_000_000 && readFileSync(path).includes(needle)) found.push(path.slice(root.length + 1));
  }
  return found;
}
