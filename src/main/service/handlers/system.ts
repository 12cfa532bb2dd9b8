// The app itself: what this machine can do, the database's health and backups, usage, and skills.
import type { MethodOutput, ServiceHandlers } from '../../../shared/contract';
import { FolioError } from '../../../shared/errors';
import { skillDirs } from '../../assembly/profiles';
import { sofficePath } from '../../renderers/soffice';
import { defaultExecutor } from '../../sandbox/select-executor';
import { loadSkills } from '../../skills/skill-registry';
import { pythonFor } from '../../tools/python-runtime';
import { listBackups } from '../../store';
import { sqliteDatabase } from '../../store/sqlite-port';
import type { ServiceContext } from '../context';
import { machineProbesSettled } from '../machine-probes';

export type SystemHandlers = Pick<ServiceHandlers, 'getCapabilities' | 'getHealth' | 'restoreBackup' | 'getUsage' | 'listSkills'>;

export function systemHandlers(ctx: ServiceContext): SystemHandlers {
  const { store } = ctx;
  return {
    async getCapabilities() {
      // The probes started at start-up answer, instead of synchronous ones started again here.
      await machineProbesSettled();
      const python = pythonFor(defaultExecutor());
      return {
        desktop: Boolean(ctx.desktop),
        soffice: sofficePath() !== null,
        sandbox: defaultExecutor().status().active,
        python: python.available ? { available: true, version: python.version, packages: python.packages?.map((p) => p.module) ?? [] } : { available: false, version: null, packages: [] },
      };
    },
    async getHealth() {
      // A core exists only once the database opened soundly; a damaged one is served by recovery-core.ts.
      // Backups are the desktop's (SQLite file) concern; a server database has its own.
      return { database: 'ok' as const, message: null, backup_at: store.dialect === 'sqlite' ? (listBackups(sqliteDatabase(store).name)[0]?.created_at ?? null) : null };
    },
    async restoreBackup(): Promise<MethodOutput<'restoreBackup'>> {
      throw new FolioError('conflict', 'The database is sound; there is nothing to restore.');
    },
    async getUsage() {
      return store.usage();
    },
    async listSkills() {
      const { skills, warnings } = loadSkills(skillDirs(ctx));
      return { skills: skills.map(({ name, description, title, summary, source, path }) => ({ name, description, title, summary, source, path })), warnings };
    },
  };
}
