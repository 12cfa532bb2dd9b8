import { useTranslation } from 'react-i18next';
import type { ProbeReport } from '../../../shared/contract';
import { probeCheckName, probeFactText } from '../../../shared/probe-text';
import type { ErrorInfo } from '../../state/notices';
import { ErrorText, ServerDetail } from '../ErrorText';
import { TestOutcome } from '../TestOutcome';

export type ProbeState = { status: 'running' } | { status: 'done'; report: ProbeReport } | { status: 'failed'; error: ErrorInfo };

/** A probe's outcome: each declared capability against what the endpoint did, or why the probe failed. */
export function ProbeResult({ state }: { state: ProbeState }) {
  const { t } = useTranslation();
  if (state.status === 'running') return null;
  if (state.status === 'failed') return <TestOutcome outcome={{ kind: 'error', error: state.error }} testId="probe-error" />;
  const { report } = state;
  const mismatches = report.rows.filter((r) => !r.ok).length;
  return (
    <div className="probe-result" data-testid="probe-result" data-profile={report.profile}>
      <div className={mismatches === 0 && !report.error ? 'probe-summary ok' : 'probe-summary bad'}>
        {mismatches === 0 && !report.error ? t('probe.allOk') : t('probe.mismatches', { count: mismatches })}
      </div>
      {report.error && (
        <div className="inline-error" data-testid="probe-error">
          {report.error_code ? <ErrorText error={{ code: report.error_code, name: report.error_name, message: report.error }} /> : <ServerDetail text={report.error} />}
        </div>
      )}
      {report.rows.length > 0 && (
        <table className="table probe-table">
          <thead>
            <tr>
              <th>{t('probeReport.columns.check')}</th>
              <th>{t('probeReport.columns.declared')}</th>
              <th>{t('probeReport.columns.observed')}</th>
              <th>{t('probeReport.columns.result')}</th>
            </tr>
          </thead>
          <tbody>
            {report.rows.map((row, i) => (
              <tr key={i} data-testid="probe-check" data-check={row.check} data-ok={row.ok}>
                <td>{probeCheckName(row.check, t)}</td>
                <td>{probeFactText(row.declared, t)}</td>
                <td>{probeFactText(row.observed, t)}</td>
                <td>
                  <span className={row.ok ? 'key-yes' : 'key-no'}>{row.ok ? t('probeReport.status.ok') : t('probeReport.status.mismatch')}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
