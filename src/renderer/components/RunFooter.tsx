import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Run } from '../../shared/contract';
import { formatDuration, formatMoney, formatTokens, toDate } from '../lib/format';
import { useApp } from '../state/app-store';
import type { LiveRun } from '../state/live-run';
import { useModelLabel } from './ModelOptions';
import { ErrorText, ServerDetail } from './ErrorText';
import { plainT } from '../i18n/plain';
import { spacedT } from '../i18n/spaced';

export function RunFooter({ run }: { run: Run }) {
  const { t } = useTranslation();
  const model = useModelLabel(run.model);
  const duration = run.finished_at === null ? null : toDate(run.finished_at).getTime() - toDate(run.started_at).getTime();
  return (
    <div className={`run-footer run-${run.status}`} data-testid="run-footer" data-run-status={run.status}>
      <span className={`status-pill status-${run.status}`}>{t(`runStatus.${run.status}`)}</span>
      {/* Who answered sits with the status; the measured figures follow, so a figure that is
          blank or grows a digit never leaves the name stranded mid-row. */}
      {model && (
        <span className="run-model" title={model.modelId}>
          {model.label}
        </span>
      )}
      <UsageFigures promptTokens={run.prompt_tokens} completionTokens={run.completion_tokens} cost={run.cost} model={run.model} />
      {duration !== null && (
        <span title={plainT('run.duration')} data-dynamic>
          {formatDuration(duration, t)}
        </span>
      )}
      {run.error && (
        <span className="run-error">
          {run.error_code ? <ErrorText error={{ code: run.error_code, name: run.error_name, message: run.error }} /> : <ServerDetail text={run.error} />}
        </span>
      )}
    </div>
  );
}

export function LiveRunFooter({ live }: { live: LiveRun }) {
  const { t } = useTranslation();
  const model = useModelLabel(live.model);
  const [now, setNow] = useState(() => Date.now());
  const running = live.finished === null;
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);
  const elapsed = live.finished ? live.finished.durationMs : live.startedAt === null ? null : Math.max(0, now - toDate(live.startedAt).getTime());
  return (
    <div className="run-footer run-live" data-testid="live-run-footer">
      {running ? <span className="spinner" role="img" aria-label={plainT('run.running')} /> : <span className="status-pill">{t(`finishReason.${live.finished?.reason ?? 'done'}`)}</span>}
      {model && (
        <span className="run-model" title={model.modelId}>
          {model.label}
        </span>
      )}
      {/* Nothing counted yet while the first tokens stream: no "0 in · 0 out". */}
      {(!running || live.usage.promptTokens + live.usage.completionTokens > 0) && (
        <UsageFigures promptTokens={live.usage.promptTokens} completionTokens={live.usage.completionTokens} cost={live.usage.cost} model={live.model} />
      )}
      {elapsed !== null && (
        <span title={plainT('run.duration')} data-dynamic>
          {formatDuration(elapsed, t)}
        </span>
      )}
    </div>
  );
}

interface UsageFiguresProps {
  promptTokens: number;
  completionTokens: number;
  cost: number;
  /** The profile the run used: its price says the currency, or that no price is set. */
  model: string | null;
}

function UsageFigures({ promptTokens, completionTokens, cost, model }: UsageFiguresProps) {
  const { t, i18n } = useTranslation();
  const price = useApp((s) => s.profiles.find((p) => p.id === model)?.price);
  const money = formatMoney(cost, price, i18n.language);
  return (
    <>
      <span title={plainT('usage.tooltip', { prompt: promptTokens, completion: completionTokens })} data-dynamic>
        {t('usage.tokensInOut', { prompt: formatTokens(promptTokens), completion: formatTokens(completionTokens) })}
      </span>
      <span title={plainT('usage.costHint')} data-dynamic>
        {money === null ? t('usage.noPrice') : spacedT('usage.cost', { cost: money })}
      </span>
    </>
  );
}
