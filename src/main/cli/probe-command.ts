// `folio probe <profile>`: declared vs observed capabilities; never edits the yaml.
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { probeExitCode, probeProfile } from '../llm/probe';
import { createFileKeyStore, loadModelProfiles, resolveApiKey } from '../models';
import { cliLanguage, configWarningLine, type Translate } from './cli-messages';
import { formatProbeTable } from './probe-table';

export async function probeCommand(argv: string[], paths: { resourcesDir: string; dataDir: string }, t: Translate): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: { needle: { type: 'boolean', default: false } }, allowPositionals: true, strict: true });
  const id = positionals[0];
  const { profiles, warnings } = loadModelProfiles({ builtin: join(paths.resourcesDir, 'config', 'models'), user: join(paths.dataDir, 'models') });
  for (const w of warnings) console.error(configWarningLine(w, t));
  const profile = profiles.find((p) => p.id === id);
  if (!profile) {
    const known = profiles.map((p) => p.id).join(', ');
    console.error(id === undefined ? t('errors.noProfile', { known }) : t('errors.unknownProfile', { id, known }));
    return 3;
  }
  const key = resolveApiKey(profile, createFileKeyStore(paths.dataDir)) ?? '';
  const report = await probeProfile(profile, key, { needle: values.needle, outbound: null });
  console.log(formatProbeTable(report, t, cliLanguage() === 'en'));
  return probeExitCode(report);
}
