import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contract, type MethodName } from '../src/shared/contract/methods';
import { methodTablePlugin } from './vite-method-table';

const MODULE = resolve(__dirname, '../src/shared/contract/method-table.ts');

/** Evaluates the module text the plugin gives the renderer build. */
async function builtTable(): Promise<{ names: MethodName[]; http: Record<string, unknown> }> {
  const plugin = methodTablePlugin();
  const load = plugin.load as (id: string) => string | null;
  const code = load(MODULE);
  expect(code).not.toBeNull();
  const mod = (await import(`data:text/javascript,${encodeURIComponent(code as string)}`)) as { methodTable: { names: MethodName[]; http: Record<string, unknown> } };
  return mod.methodTable;
}

describe('methodTablePlugin', () => {
  it('gives the renderer every method of the contract and exactly the routes the contract declares', async () => {
    const table = await builtTable();
    expect(table.names).toEqual(Object.keys(contract));
    for (const name of Object.keys(contract) as MethodName[]) expect(table.http[name]).toEqual(contract[name].http);
    expect(table.http.listTasks).toEqual({ method: 'GET', path: '/v1/tasks' });
  });

  it('leaves every other module alone', () => {
    const load = methodTablePlugin().load as (id: string) => string | null;
    expect(load(resolve(__dirname, '../src/shared/contract/methods.ts'))).toBeNull();
  });
});
