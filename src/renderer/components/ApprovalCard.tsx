// An approval shows everything the tool would do — the full command, path, diff and arguments —
// because a person can only judge what they can see.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { classifyDiffLine, commandOf, pathOf, prettyArgs } from '../lib/tool-args';
import type { ApprovalDecision } from '../../shared/contract';
import type { ApprovalView } from '../state/chat-rows';
import { useChat } from '../state/chat-store';
import { hasHidden } from '../lib/visible-text';
import { VisibleText } from './VisibleText';

/**
 * The answers a card offers besides Deny. Code-running tools (kind `execute`) are granted per exact
 * command, never as a whole tool, so they get no "always allow this tool" (main refuses it too).
 */
export function approvalChoices(toolKind: ApprovalView['toolKind']): { decision: Exclude<ApprovalDecision, 'deny'>; label: string }[] {
  const perCommand = toolKind === 'execute';
  return [
    { decision: 'allow_once', label: 'approval.allowOnce' },
    { decision: 'allow_task', label: perCommand ? 'approval.allowCommandForTask' : 'approval.allowTask' },
    ...(perCommand ? [] : [{ decision: 'always' as const, label: 'permissions.alwaysAllowTool' }]),
  ];
}

const choiceTestIds: Record<Exclude<ApprovalDecision, 'deny'>, string> = {
  allow_once: 'approval-allow-once',
  allow_task: 'approval-allow-task',
  always: 'approval-always',
};

export function ApprovalCard({ approval }: { approval: ApprovalView }) {
  const { t } = useTranslation();
  const decide = useChat((s) => s.decide);
  const [denying, setDenying] = useState(false);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const command = approval.toolKind === 'execute' ? commandOf(approval.arguments) : null;
  const path = pathOf(approval.arguments);
  const hidden = hasHidden(approval.arguments) || hasHidden(approval.detail ?? '');

  const submit = async (decision: ApprovalDecision) => {
    setBusy(true);
    await decide(approval, decision, decision === 'deny' ? reason : undefined);
    setBusy(false);
  };

  return (
    <div className={`approval-card risk-${approval.risk}`} data-testid="approval-card" data-call-id={approval.callId}>
      <div className="approval-head">
        <span className="approval-title">{t('approval.title', { name: approval.name })}</span>
        <span className={`badge kind-${approval.toolKind}`}>{t(`toolKind.${approval.toolKind}`)}</span>
        {approval.risk === 'destructive' && (
          <span className="badge badge-danger" data-testid="approval-destructive">
            {t('approval.destructive')}
          </span>
        )}
        {hidden && (
          <span className="badge badge-danger" title={t('approval.hiddenCharsHint')} data-testid="approval-hidden-chars">
            {t('approval.hiddenChars')}
          </span>
        )}
      </div>
      {command !== null && (
        <div className="approval-field">
          <div className="field-label">{t('approval.command')}</div>
          <pre className="approval-command">
            <VisibleText text={command} />
          </pre>
        </div>
      )}
      {path !== null && (
        <div className="approval-field">
          <div className="field-label">{t('approval.path')}</div>
          <code>
            <VisibleText text={path} />
          </code>
        </div>
      )}
      {approval.detail && (
        <div className="approval-field">
          <div className="field-label">{t('approval.detail')}</div>
          <pre className="diff">
            {approval.detail.split('\n').map((line, i) => (
              <span key={i} className={`diff-line diff-${classifyDiffLine(line)}`}>
                <VisibleText text={line} />
                {'\n'}
              </span>
            ))}
          </pre>
        </div>
      )}
      <div className="approval-field">
        <div className="field-label">{t('approval.arguments')}</div>
        <pre className="tool-args">
          <VisibleText text={prettyArgs(approval.arguments)} />
        </pre>
      </div>
      {denying ? (
        <div className="approval-deny">
          <input
            className="input"
            autoFocus
            placeholder={t('approval.reasonPlaceholder')}
            aria-label={t('approval.reason')}
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
            {t('approval.deny')}
          </button>
          <button type="button" className="btn" disabled={busy} onClick={() => setDenying(false)}>
            {t('common.cancel')}
          </button>
        </div>
      ) : (
        <div className="approval-actions">
          {approvalChoices(approval.toolKind).map((choice, i) => (
            <button
              key={choice.decision}
              type="button"
              className={i === 0 ? 'btn btn-primary' : 'btn'}
              disabled={busy}
              onClick={() => void submit(choice.decision)}
              data-testid={choiceTestIds[choice.decision]}
            >
              {t(choice.label)}
            </button>
          ))}
          <button type="button" className="btn btn-ghost-danger" disabled={busy} onClick={() => setDenying(true)} data-testid="approval-deny">
            {t('approval.deny')}
          </button>
        </div>
      )}
    </div>
  );
}
