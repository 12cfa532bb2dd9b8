// In the team service, usage is the tenant's month from the append-only ledger, per user and per
// task, with its quotas, instead of the desktop's totals from the store.
import type { ServiceHandlers } from '../../../shared/contract';
import type { TeamQuotas } from '../../quotas/team-quotas';
import { tenantUsageAnswer } from '../../quotas/usage-answer';
import type { StorePort } from '../../store/port';
import type { HandlerPolicy } from './policy';

export function tenantUsagePolicy(store: StorePort, quotas: TeamQuotas): HandlerPolicy {
  return {
    name: 'tenant usage',
    wrap: (): Partial<ServiceHandlers> => ({
      getUsage: (input) =>
        tenantUsageAnswer(store.scope, input, {
          ledger: quotas.ledger,
          guard: quotas.guard,
          taskTitles: async (_scope, ids) => new Map((await Promise.all(ids.map((id) => store.tasks.get(id)))).flatMap((t) => (t ? [[t.id, t.title] as const] : []))),
        }),
    }),
  };
}
