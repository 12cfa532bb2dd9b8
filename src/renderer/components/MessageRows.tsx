// One component per chat row kind. Rows are measured by the virtualizer, so each renders as a
// single block whose height depends only on its content.
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { parseSystemNotice, topLevelCallId, type Message } from '../../shared/contract';
import type { ChatRow } from '../state/chat-rows';
import type { LiveRun, ToolResultSummary } from '../state/live-run';
import type { ToolResultFacts } from '../../shared/contract/tool-calls';
import { ApprovalCard } from './ApprovalCard';
import { ReplyTools, UserMessage } from './BranchControls';
import { Markdown } from './Markdown';
import { LiveRunFooter, RunFooter } from './RunFooter';
import { PREVIEW_CHARS, ToolCard } from './ToolCard';
import { ErrorText } from './ErrorText';
import { progressLabel } from '../lib/progress-label';
import { formatDate } from '../lib/format';
import { modelLabel } from '../../shared/model-names';
import { useApp } from '../state/app-store';
import { plainT } from '../i18n/plain';

function toolResultOf(message: Message | null, facts: ToolResultFacts = {}): ToolResultSummary | null {
  if (!message) return null;
  return {
    preview: message.content.slice(0, PREVIEW_CHARS),
    truncated: message.content.length > PREVIEW_CHARS,
    isError: message.is_error,
    fullLength: message.content.length,
    ...(facts.failure || facts.program ? { facts } : {}),
  };
}

function Reasoning({ text, streaming }: { text: string; streaming?: boolean }) {
  const { t } = useTranslation();
  return (
    <details className="reasoning" data-testid="reasoning">
      <summary>{streaming ? t('chat.thinking') : t('chat.reasoning')}</summary>
      <div className="reasoning-body">{text}</div>
    </details>
  );
}

/** A service notice worded in the screen's language; plain system text (older notes) as written. */
function SystemText({ content }: { content: string }) {
  const { t, i18n } = useTranslation();
  const notice = parseSystemNotice(content);
  if (notice === null) return <>{content}</>;
  switch (notice.notice) {
    case 'task_archived':
      return notice.purge_at === null
        ? <>{t('chat.noticeArchivedKept', { days: notice.idle_days })}</>
        : <>{t('chat.noticeArchived', { days: notice.idle_days, date: formatDate(notice.purge_at, i18n.language) })}</>;
    case 'task_files_purged':
      return <>{t('chat.noticeFilesPurged', { date: formatDate(notice.archived_at, i18n.language) })}</>;
  }
}

/** Memoized: scrolling re-renders the list every frame, while a row's object only changes with its content. */
export const ChatRowView = memo(function ChatRowView({ row, taskId }: { row: ChatRow; taskId: string }) {
  const { t } = useTranslation();
  switch (row.kind) {
    case 'user':
      return (
        <div className="msg msg-user" data-testid="user-message">
          <UserMessage message={row.message} />
        </div>
      );
    case 'assistant':
      return (
        <div className="msg msg-assistant" data-testid="assistant-message">
          {row.message.reasoning && <Reasoning text={row.message.reasoning} />}
          {row.message.content && <Markdown text={row.message.content} />}
          {row.message.is_error && (
            <div className="notice notice-cut-off" data-testid="cut-off-note">
              {t('chat.cutOff')}
            </div>
          )}
          {row.tools.map((tool) => (
            <ToolCard key={tool.callId} taskId={taskId} callId={tool.callId} name={tool.name} arguments={tool.arguments} result={toolResultOf(tool.result, tool.facts)} state={tool.state} />
          ))}
          <ReplyTools message={row.message} />
        </div>
      );
    case 'tool':
      return (
        <div className="msg msg-assistant">
          <ToolCard
            taskId={taskId}
            callId={row.message.tool_call_id ?? row.message.id}
            name={row.message.name ?? t('tool.unknown')}
            arguments=""
            result={toolResultOf(row.message)}
          />
        </div>
      );
    case 'system':
      return (
        <div className="msg msg-system">
          <span className="muted">
            <SystemText content={row.message.content} />
          </span>
        </div>
      );
    case 'run-footer':
      return <RunFooter run={row.run} />;
    case 'live':
      return <LiveRunView live={row.live} taskId={taskId} />;
    case 'approvals':
      return (
        <div className="approvals" data-testid="approvals">
          {row.approvals.map((approval) => (
            <ApprovalCard key={approval.callId} approval={approval} />
          ))}
        </div>
      );
  }
});

function LiveRunView({ live, taskId }: { live: LiveRun; taskId: string }) {
  const { t } = useTranslation();
  const profiles = useApp((s) => s.profiles);
  const streaming = live.finished === null;
  return (
    <div className="msg msg-assistant msg-live" data-testid="assistant-message" data-live="true">
      {live.resumed && <div className="notice">{t('chat.resumed')}</div>}
      {live.items.map((item, i) => {
        const last = i === live.items.length - 1;
        switch (item.kind) {
          case 'text':
            return <Markdown key={i} text={item.text} />;
          case 'reasoning':
            return <Reasoning key={i} text={item.text} streaming={streaming && last} />;
          case 'tool':
            return (
              <ToolCard
                key={item.callId}
                taskId={taskId}
                callId={item.callId}
                name={item.name}
                arguments={item.arguments}
                result={item.result}
                // A question asked inside a skill's sub-agent keeps its top-level card waiting too.
                awaitingApproval={live.approvals.some((a) => topLevelCallId(a.callId) === item.callId)}
                nested={item.nested}
              />
            );
          case 'compacted':
            return (
              <div key={i} className="notice">
                {t('chat.compacted', { messages: item.messages, tokens: item.removedTokens })}
              </div>
            );
          case 'reasoning_ignored':
            return (
              <div key={i} className="notice" data-testid="reasoning-ignored">
                {t('reasoning.ignored', { profile: modelLabel(item.profile, profiles, t), requested: t(`reasoningModes.${item.requested}`), applied: t(`reasoningModes.${item.applied}`) })}
              </div>
            );
          case 'git_config_risk':
            return (
              <div key={i} className="notice warn" data-testid="git-config-risk">
                <div>{t('chat.gitConfigRisk')}</div>
                <ul>
                  {item.findings.map((f) => (
                    <li key={`${f.key}\u0000${f.value}`}>
                      <code>{f.key === 'hook' ? t('chat.gitHook', { name: f.value }) : `${f.key} = ${f.value}`}</code>
                    </li>
                  ))}
                </ul>
              </div>
            );
        }
      })}
      {live.progress && (
        <div className="progress" data-testid="run-progress">
          <span className="spinner" />
          <span>{progressLabel(live.progress.of, t)}</span>
          {live.progress.total !== null && (
            <span className="muted">{t('chat.progressCount', { done: live.progress.done, total: live.progress.total })}</span>
          )}
        </div>
      )}
      {streaming && live.items.length === 0 && !live.progress && <div className="typing" aria-label={plainT('run.running')} />}
      {live.errors.map((error, i) => (
        <div key={i} className="inline-error" data-testid="run-error">
          <ErrorText error={error} />
        </div>
      ))}
      <LiveRunFooter live={live} />
    </div>
  );
}
