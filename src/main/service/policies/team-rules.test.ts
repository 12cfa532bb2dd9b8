// The team policy's last resort: an error any handler throws has the server's folders rewritten
// to paths inside them, so a message built from an absolute path names nothing of the server.
import { describe, expect, it } from 'vitest';
import type { ServiceHandlers } from '../../../shared/contract';
import { FolioError } from '../../../shared/errors';
import { applyPolicies } from './policy';
import { teamRulesPolicy } from './team-rules';

describe('team policy', () => {
  it("rewrites the server's folders in any handler's error message", async () => {
    const dataDir = '/srv/folio/tenants/acme';
    const resourcesDir = '/opt/folio/resources';
    const base = {
      getTask: async () => {
        throw new FolioError('not_found', `No file ${dataDir}/tasks/t_1/source/a.pdf (see ${resourcesDir}/skills, ${dataDir} or /srv/folio/tenants/globex/keys.json)`);
      },
    } as unknown as ServiceHandlers;
    const handlers = applyPolicies(base, [teamRulesPolicy({ dataDir, resourcesDir, outerDirs: ['/srv/folio'] })]);
    await expect(handlers.getTask({ task_id: 't_1' })).rejects.toMatchObject({
      code: 'not_found',
      message: 'No file tasks/t_1/source/a.pdf (see skills, . or tenants/globex/keys.json)',
    });
  });
});
