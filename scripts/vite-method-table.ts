// Vite plugin for the renderer build: `src/shared/contract/method-table.ts` becomes the table it
// computes, as a literal, so the renderer's first chunk does not import the zod contract to learn
// its routes. The table is computed from the contract at each build, so it cannot drift from it.
import { resolve } from 'node:path';
import type { Plugin } from 'vite';
import { buildMethodTable } from '../src/shared/contract/method-table';

const MODULE = resolve(__dirname, '../src/shared/contract/method-table.ts');

export function methodTablePlugin(): Plugin {
  return {
    name: 'folio-method-table',
    enforce: 'pre',
    load(id) {
      if (id.split('?')[0] !== MODULE) return null;
      const table = JSON.stringify(buildMethodTable());
      return `export const methodTable = ${table};\nexport function buildMethodTable() { return methodTable; }\n`;
    },
  };
}
