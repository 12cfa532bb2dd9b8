// An approval shows the one thing a person judges — the command, the file's new content, the diff,
// the address — once, with why it asks in plain words and answers that say what they allow and for
// how long. Hidden characters are shown escaped: a person can only judge what they can see.
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { approvalChoices, approvalReasons, approvalSubject, approvalTone, type ApprovalChoice, type ApprovalSubject } from '../lib/approval-view';
import { rowsOfReplacement, type DiffRow } from '../lib/readable-diff';
import { mcpParts, toolLabel } from '../../shared/tool-names';
import type { ApprovalDecision } from '../../shared/contract';
import type { ApprovalView } from '../state/chat-rows';
import { useChat } from '../state/chat-store';
import { hasHidden } from '../lib/visible-text';
import { Markdown } from './Markdown';
import { VisibleText } from './VisibleText';
import { plainT, usePlainT } from '../i18n/plain';

export { approvalChoices };

const choiceTestIds: Record<ApprovalChoice['decision'], string> = {
  allow_once: 'approval-allow-once',
  allow_task: 'approval-allow-task',
  always: 'approval-always',
};

/** Before and after lines with their numbers; the sign column says removed or added without relying on colour. */
function ReadableDiff({ rows }: { rows: DiffRow[] }) {
  const plainT = usePlainT();
  return (
    <div className="diff readable-diff" role="table" aria-label={plainT('approval.changes')} data-testid="approval-diff">
      {rows.map((row, i) =>
        row.kind === 'gap' ? (
          <div key={i} className="diff-line diff-gap" role="row">
            <span role="cell">⋯</span>
          </div>
        ) : (
          <div key={i} className={`diff-line diff-${row.kind}`} role="row" data-kind={row.kind}>
            <span className="diff-no" role="cell" aria-hidden="true">
              {row.kind === 'add' ? (row.newLine ?? '') : (row.oldLine ?? '')}
            </span>
            <span className="diff-sign" role="cell" aria-label={row.kind === 'context' ? undefined : plainT(`approval.diff.${row.kind}`)}>
              {row.kind === 'add' ? '+' : row.kind === 'remove' ? '−' : ' '}
            </span>
            <span className="diff-text" role="cell">
              <VisibleText text={row.text} />
            </span>
          </div>
        ),
      )}
    </div>
  );
}

/** A long revision lists its first changes; the count says how many there are in all. */
const SHOWN_EDITS = 20;

/** One part of what is asked: its label (when it has one) above what it shows. */
function ApprovalField({ label, children }: { label: string | null; children: ReactNode }) {
  return (
    <div className="approval-field">
      {label !== null && <div className="field-label">{label}</div>}
      {children}
    </div>
  );
}

function Subject({ subject }: { subject: ApprovalSubject }) {
  const { t } = useTranslation();
  switch (subject.kind) {
    case 'command':
      return (
        <pre className="approval-command" data-testid="approval-command">
          <VisibleText text={subject.command} />
        </pre>
      );
    case 'file':
      return (
        <ApprovalField label={t('approval.newContent', { path: subject.path })}>
          <pre className="approval-content" data-testid="approval-content">
            <VisibleText text={subject.content} />
          </pre>
        </ApprovalField>
      );
    case 'diff':
      return (
        <ApprovalField label={subject.path ? t('approval.changesTo', { path: subject.path }) : t('approval.changes')}>
          {subject.note && (
            <pre className="approval-note" data-testid="approval-note">
              <VisibleText text={subject.note} />
            </pre>
          )}
          <ReadableDiff rows={subject.rows} />
        </ApprovalField>
      );
    case 'note':
      return (
        <ApprovalField label={subject.path ? t('approval.changesTo', { path: subject.path }) : null}>
          <pre className="approval-note" data-testid="approval-note">
            <VisibleText text={subject.text} />
          </pre>
        </ApprovalField>
      );
    case 'address':
      return (
        <code className="approval-address" data-testid="approval-address">
          <VisibleText text={subject.address} />
        </code>
      );
    case 'query':
      return (
        <ApprovalField label={t('approval.searchFor')}>
          <code className="approval-address" data-testid="approval-query">
            <VisibleText text={subject.query} />
          </code>
        </ApprovalField>
      );
    case 'arguments':
      return (
        <pre className="tool-args" data-testid="approval-arguments">
          <VisibleText text={subject.text} />
        </pre>
      );
    case 'plan':
      return (
        <ApprovalField label={t('approval.plan')}>
          <div className="approval-content approval-plan" data-testid="approval-plan">
            <Markdown text={subject.content} />
          </div>
          <p className="approval-plan-grants" data-testid="approval-plan-grants">
            {t('approval.planGrants')}
          </p>
        </ApprovalField>
      );
    case 'render':
      return (
        <div className="approval-field" data-testid="approval-render">
          {t(subject.what === 'deck' ? 'approval.renderDeck' : 'approval.renderDocument', { source: subject.source })}
        </div>
      );
    case 'revision':
      return (
        <ApprovalField label={t('approval.revision', { path: subject.path, count: subject.edits.length })}>
          <ol className="approval-edits" data-testid="approval-edits">
            {subject.edits.slice(0, SHOWN_EDITS).map((edit, i) => (
              <li key={i}>
                <ReadableDiff rows={rowsOfReplacement(edit.find, edit.replace)} />
                {edit.reason && <div className="muted">{edit.reason}</div>}
              </li>
            ))}
          </ol>
          {subject.edits.length > SHOWN_EDITS && <div className="muted">{t('approval.moreEdits', { count: subject.edits.length - SHOWN_EDITS })}</div>}
        </ApprovalField>
      );
  }
}

export function ApprovalCard({ approval }: { approval: ApprovalView }) {
  const { t } = useTranslation();
  const decide = useChat((s) => s.decide);
  const [denying, setDenying] = useState(false);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const subject = approvalSubject(approval);
  const reasons = approvalReasons(approval);
  const tone = approvalTone(approval);
  const hidden = hasHidden(approval.arguments) || hasHidden(approval.detail ?? '');
  const tool = toolLabel(approval.name, t);
  const mcp = approval.toolKind === 'mcp' ? mcpParts(approval.name) : null;
  // A plan is declined by saying what should change, which the agent reads to propose it again.
  const plan = subject.kind === 'plan';

  const submit = async (decision: ApprovalDecision) => {
    setBusy(true);
    await decide(approval, decision, decision === 'deny' ? reason : undefined);
    setBusy(false);
  };

  return (
    <div className={`approval-card approval-${tone}`} role="group" aria-label={plainT('approval.title', { name: tool })} data-testid="approval-card" data-call-id={approval.callId} data-tone={tone}>
      <div className="approval-head">
        <span className="approval-title">{t('approval.title', { name: tool })}</span>
        <span className={`badge kind-${approval.toolKind}`}>{t(`toolKind.${approval.toolKind}`)}</span>
        {tone === 'danger' && (
          <span className="badge badge-danger" data-testid="approval-destructive">
            {t('approval.destructive')}
          </span>
        )}
        {tone === 'network' && (
          <span className="badge badge-network" data-testid="approval-network">
            {t('approval.network')}
          </span>
        )}
        {hidden && (
          <span className="badge badge-danger" title={plainT('approval.hiddenCharsHint')} data-testid="approval-hidden-chars">
            {t('approval.hiddenChars')}
          </span>
        )}
      </div>
      {(reasons.length > 0 || mcp) && (
        <ul className="approval-reasons" data-testid="approval-reasons">
          {mcp && <li>{t('approval.reason.mcp', { tool: mcp.tool, server: mcp.server })}</li>}
          {reasons.map((r) => (
            <li key={r.code}>
              {r.code === 'network' && !r.subject
                ? t(subject.kind === 'query' ? 'approval.reason.networkSearch' : 'approval.reason.networkFetch')
                : t(`approval.reason.${r.code}`, { subject: r.subject ?? '' })}
            </li>
          ))}
        </ul>
      )}
      <Subject subject={subject} />
      {denying ? (
        <div className="approval-deny">
          <input
            className="input"
            autoFocus
            placeholder={t(plan ? 'approval.planChangesPlaceholder' : 'approval.reasonPlaceholder')}
            aria-label={plainT('approval.reason.label')}
            value={reason}
            maxLength={2000}
            onChange={(e) => setReason(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.nativeEvent.isComposing) void submit('deny');
              if (e.key === 'Escape') setDenying(false);
            }}
            data-testid="approval-reason"
          />
          <button type="button" className="btn btn-danger" disabled={busy} onClick={() => void submit('deny')} data-testid="approval-deny-confirm">
            {t(plan ? 'approval.planChanges' : 'approval.deny')}
          </button>
          <button type="button" className="btn" disabled={busy} onClick={() => setDenying(false)}>
            {t('common.cancel')}
          </button>
        </div>
      ) : (
        <div className="approval-actions">
          {approvalChoices(approval).map((choice, i) => (
            <button
              key={choice.decision}
              type="button"
              // A risky call has no default answer: nothing is styled as the obvious click.
              className={i === 0 && tone !== 'danger' ? 'btn btn-primary' : 'btn'}
              disabled={busy}
              onClick={() => void submit(choice.decision)}
              data-testid={choiceTestIds[choice.decision]}
            >
              {t(choice.label, { tool })}
            </button>
          ))}
          <button type="button" className="btn btn-ghost-danger" disabled={busy} onClick={() => setDenying(true)} data-testid="approval-deny">
            {t(plan ? 'approval.planChanges' : 'approval.deny')}
          </button>
        </div>
      )}
    </div>
  );
}
