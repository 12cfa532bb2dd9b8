// /readyz's database check: one trivial query, bounded by the server's own readiness timeout.
import type { Queryable } from './tenant-registry';

export function databaseAnswers(db: Queryable): () => Promise<boolean> {
  return () =>
    db.query('SELECT 1').then(
      () => true,
      () => false,
    );
}
