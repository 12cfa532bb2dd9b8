// `folio db restore`: puts the newest sound backup in place of a damaged folio.db. Run while Folio
// is closed (the data folder's lock is checked); the damaged file is moved aside, never deleted.
import { join } from 'node:path';
import { acquireDataLock } from '../config/data-lock';
import { restoreNewestBackup } from '../store';
import type { Translate } from './cli-messages';

export function dbCommand(argv: string[], dataDir: string, t: Translate): number {
  if (argv.length !== 1 || argv[0] !== 'restore') {
    console.error(t('db.usage'));
    return 1;
  }
  const lock = acquireDataLock(dataDir);
  if (!lock.owned) {
    console.error(t('db.running', { dataDir, holder: lock.holder ? t('db.holder', { pid: lock.holder }) : '' }));
    return 3;
  }
  try {
    const result = restoreNewestBackup(join(dataDir, 'folio.db'), Date.now());
    if (result === null) {
      console.error(t('db.noBackup', { dir: join(dataDir, 'backups') }));
      return 2;
    }
    console.log(t('db.restored', { when: new Date(result.restored.created_at).toISOString() }));
    if (result.corruptCopy) console.log(t('db.keptDamaged', { path: result.corruptCopy }));
    return 0;
  } finally {
    lock.release();
  }
}
