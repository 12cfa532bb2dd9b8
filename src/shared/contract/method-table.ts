// The contract's method names and HTTP routes as plain data, for code that needs them but not the
// zod schemas: `createClient` and the renderer's HTTP transport. The renderer's build replaces this
// module by the same table computed at build time (`scripts/vite-method-table.ts`), so the first
// chunk carries neither zod nor the contract's schemas (building them cost ~200 ms before the task
// list could paint); everywhere else (main, tests) it is computed here from the contract.
import { contract, type MethodName, type MethodSpec } from './methods';

export type HttpRoute = NonNullable<MethodSpec['http']>;

export interface MethodTable {
  names: readonly MethodName[];
  /** Only the methods with an HTTP route (the others are IPC only). */
  http: Partial<Record<MethodName, HttpRoute>>;
}

export function buildMethodTable(): MethodTable {
  const names = Object.keys(contract) as MethodName[];
  const http: Partial<Record<MethodName, HttpRoute>> = {};
  for (const name of names) {
    const route = (contract[name] as MethodSpec).http;
    if (route) http[name] = { ...route };
  }
  return { names, http };
}

export const methodTable: MethodTable = buildMethodTable();
