// `folio probe`'s table in the terminal's language: each check, what the profile declares, what the
// provider did and whether they agree, worded as the app's probe table words them.
import type { ProbeReport } from '../../shared/contract';
import { errorHelpKey } from '../../shared/locales/errors';
import { probeCheckName, probeFactText } from '../../shared/probe-text';
import { cellWidth, padCells, type Translate } from './cli-messages';

/** The longest observation shown (a provider's refusal can run long). */
const OBSERVED_CHARS = 70;

function clip(text: string): string {
  return text.length > OBSERVED_CHARS ? `${text.slice(0, OBSERVED_CHARS - 1)}…` : text;
}

export function formatProbeTable(report: Omit<ProbeReport, 'exit_code'>, t: Translate, english: boolean): string {
  const header = [t('probeReport.columns.check'), t('probeReport.columns.declared'), t('probeReport.columns.observed'), t('probeReport.columns.result')];
  const rows = report.rows.map((r) => [probeCheckName(r.check, t), probeFactText(r.declared, t), clip(probeFactText(r.observed, t)), r.ok ? t('probeReport.status.ok') : t('probeReport.status.mismatch')]);
  const all = [header, ...rows];
  const widths = [0, 1, 2].map((c) => Math.max(...all.map((r) => cellWidth(r[c] ?? ''))));
  const lines = [t('probeReport.title', { profile: report.profile })];
  for (const r of all) lines.push(r.map((cell, c) => (c < 3 ? padCells(cell, widths[c] ?? 0) : cell)).join('  ').trimEnd());
  if (report.error !== undefined) {
    // In English the core's own words; in another language what happened, from the error's kind.
    const said = english || !report.error_code ? report.error : t(errorHelpKey({ name: report.error_name, code: report.error_code }), {});
    lines.push(t('errors.error', { message: said }));
  }
  return lines.join('\n');
}
