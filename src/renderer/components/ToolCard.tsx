import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../lib/format';
import { headlineOf, prettyArgs } from '../../shared/tool-args';
import { collapsedPreview, COLLAPSED_ERROR, COLLAPSED_OUTPUT } from '../lib/tool-preview';
import { getApi } from '../state/api';
import { toErrorInfo, type ErrorInfo } from '../state/notices';
import { CopyOriginal } from './CopyOriginal';
import { ErrorText } from './ErrorText';
import type { NestedStep, ToolResultSummary } from '../state/live-run';
import { toolCardKey, useToolCards } from '../state/tool-card-store';
import { toolCardState, toolOutcome, type ToolOutcome } from '../../shared/tool-outcome';
import type { ToolCallState } from '../../shared/contract/tool-calls';
import { toolLabel } from '../../shared/tool-names';
import { toolSummary } from '../../shared/tool-summary';
import { isProgramTool, programOutput, programText } from '../lib/program-output';
import { Icon } from './Icon';
import { VisibleText } from './VisibleText';

export interface ToolCardProps {
  taskId: string;
  callId: string;
  name: string;
  arguments: string;
  /** null while the tool is still running. */
  result: ToolResultSummary | null;
  /** The call is waiting for the user's decision in an approval card below. */
  awaitingApproval?: boolean;
  /** The call's state as its run persisted it (Run.tool_calls); the card shows what it says. */
  state?: ToolCallState | null;
  /** A skill run as a sub-agent: its steps (nested levels included), shown collapsible inside the card. */
  nested?: NestedStep[];
}

/** Persisted tool output can be long; an expanded card shows this much of it and fetches the rest on request. */
export const PREVIEW_CHARS = 2000;

export function ToolCard({ taskId, callId, name, arguments: args, result, awaitingApproval, nested, state: recorded }: ToolCardProps) {
  const { t } = useTranslation();
  const key = toolCardKey(taskId, callId);
  const showArgs = useToolCards((s) => s.argsShown.has(key));
  const setOpen = useToolCards((s) => s.setOpen);
  const headline = headlineOf(args);
  const state = toolCardState(recorded ?? result?.state, result, awaitingApproval);

  return (
    <div className={`tool-card tool-${state}`} data-testid="tool-card" data-tool-name={name}>
      <button type="button" className="tool-head" onClick={() => setOpen(key, 'args', !showArgs)} aria-expanded={showArgs}>
        <Icon name="chevron" size={12} className={showArgs ? 'chevron open' : 'chevron'} />
        <Icon name="tool" size={14} />
        <span className="tool-name" title={name}>
          {toolLabel(name, t)}
        </span>
        {headline && (
          <code className="tool-headline">
            <VisibleText text={headline} />
          </code>
        )}
        <span className={`tool-state tool-state-${state}`}>{t(`tool.state.${state}`)}</span>
      </button>
      {showArgs && (
        <pre className="tool-args">
          <VisibleText text={prettyArgs(args)} />
        </pre>
      )}
      {nested && nested.length > 0 && <NestedSteps steps={nested} />}
      {result && <ToolOutput taskId={taskId} callId={callId} name={name} args={args} result={result} outcome={state === 'running' || state === 'approval' ? toolOutcome(result) : state} />}
    </div>
  );
}

/**
 * A finished call: what it did, in a sentence in the UI language, and behind a toggle the output,
 * which is a few lines until the person expands it, then the preview the run stored (PREVIEW_CHARS)
 * with the full result on request. What is open or fetched lives in the tool-card store, so a row the
 * list re-mounts comes back the same. The result is written for the model, in English: an English
 * screen shows it as it is; a screen in another language shows only what a program printed (a
 * command's, a script's output), and lets a failure's words be copied for a bug report, never read.
 */
function ToolOutput({ taskId, callId, name, args, result, outcome }: { taskId: string; callId: string; name: string; args: string; result: ToolResultSummary; outcome: ToolOutcome }) {
  const { t, i18n } = useTranslation();
  const english = i18n.language.startsWith('en');
  const program = !english && isProgramTool(name) && (outcome === 'ok' || outcome === 'error');
  const key = toolCardKey(taskId, callId);
  const expanded = useToolCards((s) => s.outputExpanded.has(key));
  const full = useToolCards((s) => s.full.get(key) ?? null);
  const setOpen = useToolCards((s) => s.setOpen);
  const setFull = useToolCards((s) => s.setFull);
  const rawShown = useToolCards((s) => s.rawShown.has(key));
  const facts = result.facts;
  const summary = toolSummary({ name, arguments: args, outcome, preview: result.preview, failure: facts?.failure }, t);
  const rawId = useId();
  const [loadingFull, setLoadingFull] = useState(false);
  const [fullError, setFullError] = useState<ErrorInfo | null>(null);
  const outputId = useId();
  // What the program printed: cut where the run's facts say, Folio's note on a long output's left-out middle in the person's words.
  const ownOutput = (text: string) => (facts?.program ? programText(text, facts.program, (bytes) => `\n${t('toolOutput.omitted', { size: formatBytes(bytes) })}\n`) : programOutput(text));
  const shownPreview = program ? ownOutput(result.preview) : result.preview;
  const shownFull = full !== null && program ? ownOutput(full) : full;
  const short = useMemo(() => collapsedPreview(shownPreview, result.isError ? COLLAPSED_ERROR : COLLAPSED_OUTPUT), [shownPreview, result.isError]);
  const expandable = short !== null || result.truncated;
  const collapsed = expandable && !expanded;

  const loadFull = async () => {
    setLoadingFull(true);
    setFullError(null);
    try {
      const res = await getApi().client.getToolResult({ task_id: taskId, call_id: callId });
      setFull(key, res.content);
    } catch (err) {
      setFullError(toErrorInfo(err));
    } finally {
      setLoadingFull(false);
    }
  };

  return (
    <div className="tool-result">
      <div className="tool-summary-row">
        <p className={`tool-summary tool-summary-${outcome}`} data-testid="tool-summary">
          {/* The sentence names the model's path, URL or query: hidden characters in them are shown. */}
          <VisibleText text={summary} />
        </p>
        {english || (program && shownPreview.trim() !== '') ? (
          <button type="button" className="btn btn-small tool-raw-toggle" aria-expanded={rawShown} aria-controls={rawId} onClick={() => setOpen(key, 'raw', !rawShown)} data-testid="tool-raw-toggle">
            <Icon name="chevron" size={12} className={rawShown ? 'chevron open' : 'chevron'} />
            {english ? (rawShown ? t('toolOutput.hideRaw') : t('toolOutput.showRaw')) : rawShown ? t('toolOutput.hideOutput') : t('toolOutput.showOutput')}
          </button>
        ) : (
          // Only a failure's words help a bug report: a success, a denial or a call never run says what the summary says.
          !program && outcome === 'error' && <CopyOriginal text={full ?? result.preview} />
        )}
      </div>
      {!english && facts?.program?.network_off && (
        <p className="tool-fact muted" data-testid="tool-fact-network-off">
          {t('toolOutput.networkOff')}
        </p>
      )}
      {(english || program) && (
        <div id={rawId} className="tool-raw" hidden={!rawShown} data-testid="tool-raw">
          <pre
            id={outputId}
            className={`tool-output${result.isError ? ' error' : ''}${collapsed ? ' collapsed' : ''}`}
            data-testid="tool-result"
            data-collapsed={collapsed ? 'true' : undefined}
          >
            <VisibleText text={collapsed ? (short ?? shownPreview) : (shownFull ?? shownPreview)} />
          </pre>
          {expandable && (
            <div className="tool-result-actions">
              <button type="button" className="btn btn-small tool-expand" aria-expanded={!collapsed} aria-controls={outputId} onClick={() => setOpen(key, 'output', collapsed)} data-testid="tool-expand">
                <Icon name="chevron" size={12} className={collapsed ? 'chevron' : 'chevron open'} />
                {collapsed ? t('tool.expand', { size: formatBytes(result.fullLength) }) : t('tool.collapse')}
              </button>
              {!collapsed && result.truncated && full === null && (
                <>
                  <span className="muted">{t('tool.truncated', { size: formatBytes(result.fullLength) })}</span>
                  <button type="button" className="btn btn-small" disabled={loadingFull} onClick={() => void loadFull()} data-testid="tool-show-full">
                    {loadingFull ? t('common.loading') : t('tool.showFull')}
                  </button>
                </>
              )}
            </div>
          )}
          {fullError && (
            <div className="inline-error">
              <ErrorText error={fullError} />
            </div>
          )}
        </div>
      )}
    </div>
  );
}

/** How much of a nested step's text the card shows; the sub-agent's answer is the call's result. */
const NESTED_TEXT_CHARS = 600;

/** A sub-agent's steps, collapsed by default, each indented by its level. */
function NestedSteps({ steps }: { steps: NestedStep[] }) {
  const { t } = useTranslation();
  return (
    <details className="tool-nested" data-testid="tool-nested">
      <summary>{t('tool.nested', { count: steps.filter((s) => s.kind === 'tool').length })}</summary>
      <ol className="tool-nested-steps">
        {steps.map((step, i) => (
          <li key={step.kind === 'tool' ? step.callId : `${step.parent}:${i}`} className={`tool-nested-step nested-${step.kind}`} style={{ marginInlineStart: `${(step.depth - 1) * 16}px` }} data-depth={step.depth}>
            {step.kind === 'tool' ? (
              <>
                <span className="tool-name">{toolLabel(step.name, t)}</span>{' '}
                {headlineOf(step.arguments) && (
                  <code className="tool-headline">
                    <VisibleText text={headlineOf(step.arguments) ?? ''} />
                  </code>
                )}{' '}
                <span className={`tool-state tool-state-${step.result === null ? 'running' : step.result.isError ? 'error' : 'ok'}`}>
                  {t(`tool.state.${step.result === null ? 'running' : step.result.isError ? 'error' : 'ok'}`)}
                </span>
              </>
            ) : (
              <span className={step.kind === 'reasoning' ? 'muted' : undefined}>
                <VisibleText text={step.text.length > NESTED_TEXT_CHARS ? `${step.text.slice(0, NESTED_TEXT_CHARS)}…` : step.text} />
              </span>
            )}
          </li>
        ))}
      </ol>
    </details>
  );
}
