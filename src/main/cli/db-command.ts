// `folio db restore`: puts the newest sound backup in place of a damaged folio.db. Run while Folio
// is closed (the data folder's lock is checked); the damaged file is moved aside, never deleted.
import { join } from 'node:path';
import { acquireDataLock } from '../config/data-lock';
import { restoreNewestBackup } from '../store';

export function dbCommand(argv: string[], dataDir: string): number {
  if (argv.length !== 1 || argv[0] !== 'restore') {
    console.error('Usage: folio db restore');
    return 1;
  }
  const lock = acquireDataLock(dataDir);
  if (!lock.owned) {
    console.error(`Folio is running on ${dataDir}${lock.holder ? ` (process ${lock.holder})` : ''}; close it first.`);
    return 3;
  }
  try {
    const result = restoreNewestBackup(join(dataDir, 'folio.db'), Date.now());
    if (result === null) {
      console.error(`No sound backup was found in ${join(dataDir, 'backups')}; nothing was changed.`);
      return 2;
    }
    console.log(`Restored the backup from ${new Date(result.restored.created_at).toISOString()}.`);
    if (result.corruptCopy) console.log(`The damaged database was kept as ${result.corruptCopy}.`);
    return 0;
  } finally {
    lock.release();
  }
}
