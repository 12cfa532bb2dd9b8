// Once per run, before any worker starts: checks that what the specs drive is there. Everything a test
// runs against (its Folio server, data folder and fake model) belongs to its worker (fixtures.ts), so
// workers run side by side without sharing state.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { folioCli } from './folio-server';
import { repoRoot } from './processes';

export default function globalSetup(): void {
  const missing = [folioCli(), join(repoRoot, 'out/renderer/index.html')].filter((file) => !existsSync(file));
  if (missing.length > 0) throw new Error(`The e2e tests drive the build, and ${missing.join(' and ')} is missing: run \`npm run build\` first.`);
}
