// The virtualized conversation. Rows are measured as they render (markdown, tool output and
// approvals have unpredictable heights); the view follows the stream only while the reader is
// at the bottom, and paging older history keeps the visible row in place.
import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useTranslation } from 'react-i18next';
import type { ChatRow } from '../state/chat-rows';
import { useLayout } from '../state/layout-store';
import { useToolCards } from '../state/tool-card-store';
import { ChatRowView } from './MessageRows';
import { Icon } from './Icon';
import { plainT } from '../i18n/plain';

const BOTTOM_SLACK_PX = 48;
const LOAD_OLDER_THRESHOLD_PX = 200;

interface MessageListProps {
  rows: ChatRow[];
  taskId: string;
  hasMore: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
  /** Changes when the chat must show its end whatever the reader was looking at (a run the person started). */
  followSignal?: number;
}

/**
 * A row's height before it is measured, by what it shows (a collapsed tool card is ~150 px). The
 * nearer the estimate, the less the scroll position is corrected as rows above the view are
 * measured, and the steadier the scrollbar.
 */
function estimateRowHeight(row: ChatRow | undefined): number {
  switch (row?.kind) {
    case 'user':
      return 82;
    case 'assistant':
      return (row.message.content ? 60 : 20) + row.tools.length * 150;
    case 'tool':
      return 150;
    case 'run-footer':
      return 34;
    default:
      return 96;
  }
}

/** A toggle the reader just clicked, kept where it was on screen until they scroll. */
interface Held {
  element: Element;
  /** Its top relative to the viewport's top. */
  offset: number;
  /** The list's scrollTop after the last correction: a scroll to anywhere else is the reader's. */
  scrollTop: number;
}

/** The call ids of the approvals the rows ask, in order: a new one must be seen. */
function approvalIds(rows: ChatRow[]): string {
  const last = rows.at(-1);
  return last?.kind === 'approvals' ? last.approvals.map((a) => a.callId).join(' ') : '';
}

export function MessageList({ rows, taskId, hasMore, loadingOlder, onLoadOlder, followSignal = 0 }: MessageListProps) {
  const { t } = useTranslation();
  const scrollRef = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);
  // A scroll away from the end that comes with a change of the list's size (a resize, rows measured
  // again) while the reader has not touched the list (wheel, touch, keys, a press) is the layout's,
  // not the reader leaving: the list keeps following its end.
  const readerMoved = useRef(false);
  const geometry = useRef({ scrollHeight: 0, clientHeight: 0 });
  const [showJump, setShowJump] = useState(false);
  const held = useRef<Held | null>(null);
  const [holding, setHolding] = useState(false);
  // A tool card expanded or collapsed changes its row's height: the held toggle is put back in the
  // same commit, before the row is measured again.
  const toolCardChanges = useToolCards((s) => s.changes);

  // Stable while the rows are: the virtualizer recomputes every row's offset whenever this
  // function changes, which a fresh closure per render made happen on every scroll frame.
  const getItemKey = useCallback((index: number) => rows[index]?.key ?? index, [rows]);
  const estimateSize = useCallback((index: number) => estimateRowHeight(rows[index]), [rows]);
  // Where the view goes as rows change is the virtualizer's, computed from its measurements (no
  // layout read per scroll event or commit): when older pages are prepended the row in view keeps
  // its place (`anchorTo: 'end'`, by key); a row measured above the view for the first time moves
  // the scroll position by its estimate's error, so what is in view does not jump while scrolling
  // up; at the bottom, the view follows new rows and rows that grow (a streamed answer). While a
  // clicked toggle is held, the bottom is not followed: the reader is looking at that card.
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    overscan: 6,
    getItemKey,
    anchorTo: holding ? 'start' : 'end',
    followOnAppend: !holding,
  });

  const totalSize = virtualizer.getTotalSize();
  const items = virtualizer.getVirtualItems();

  const scrollToBottom = useCallback(() => {
    const el = scrollRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, []);

  // Opening the task, and content arriving while the reader is at the bottom (a page, a run's
  // first rows), ends at the bottom; the virtualizer keeps it there as rows are measured.
  useLayoutEffect(() => {
    if (stickToBottom.current && !held.current) scrollToBottom();
  }, [rows, totalSize, scrollToBottom]);

  // A list that changes size while following the end (a resized window reflows every row, the
  // composer grows) keeps showing the end: a pending approval's buttons are there.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (stickToBottom.current && !held.current) scrollToBottom();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [scrollToBottom]);

  // A run the person started, or a question the run now waits on, is brought into view even when the
  // reader had scrolled up: a pending approval that stays off-screen stalls the run unseen.
  const asked = approvalIds(rows);
  const seen = useRef({ asked: '', followSignal });
  useLayoutEffect(() => {
    const before = seen.current;
    seen.current = { asked, followSignal };
    const newQuestion = asked !== '' && asked.split(' ').some((id) => !before.asked.split(' ').includes(id));
    if (!newQuestion && followSignal === before.followSignal) return;
    held.current = null;
    setHolding(false);
    stickToBottom.current = true;
    setShowJump(false);
    scrollToBottom();
    if (newQuestion) {
      // In the narrow layout the file panel is a drawer over the conversation: it would hide the card.
      useLayout.getState().closeDrawer();
      const cards = scrollRef.current?.querySelectorAll('[data-testid="approval-card"]');
      cards?.[cards.length - 1]?.scrollIntoView({ block: 'nearest' });
    }
  }, [asked, followSignal, scrollToBottom]);

  // Puts the held toggle back where it was after its card changed height.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    const kept = held.current;
    if (!el || !kept) return;
    if (!kept.element.isConnected) {
      held.current = null;
      return;
    }
    const delta = kept.element.getBoundingClientRect().top - el.getBoundingClientRect().top - kept.offset;
    if (Math.abs(delta) >= 1) el.scrollTop += delta;
    kept.scrollTop = el.scrollTop;
  }, [toolCardChanges, totalSize]);

  // A toggle the reader clicks in a row (a tool card's output or arguments) is about to change its
  // height. Keep what they are looking at in place rather than follow the bottom: the card's top
  // when expanding (the text continues below it) or when it is in view, else the toggle itself
  // (collapsing a long output scrolled into).
  const holdToggle = (event: React.MouseEvent) => {
    const el = scrollRef.current;
    const toggle = (event.target as Element).closest('button[aria-expanded]');
    if (!el || !toggle?.closest('.message-row')) return;
    const card = toggle.closest('.tool-card') ?? toggle;
    const viewTop = el.getBoundingClientRect().top;
    const expanding = toggle.getAttribute('aria-expanded') === 'false';
    const element = expanding || card.getBoundingClientRect().top >= viewTop ? card : toggle;
    held.current = { element, offset: element.getBoundingClientRect().top - viewTop, scrollTop: el.scrollTop };
    stickToBottom.current = false;
    setHolding(true);
  };

  const readerMoves = () => {
    readerMoved.current = true;
  };

  const onScroll = () => {
    const el = scrollRef.current;
    if (!el) return;
    if (held.current && Math.abs(el.scrollTop - held.current.scrollTop) >= 1) {
      held.current = null;
      setHolding(false);
    }
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < BOTTOM_SLACK_PX;
    const resized = el.scrollHeight !== geometry.current.scrollHeight || el.clientHeight !== geometry.current.clientHeight;
    geometry.current = { scrollHeight: el.scrollHeight, clientHeight: el.clientHeight };
    if (!atBottom && resized && stickToBottom.current && !held.current && !readerMoved.current) {
      scrollToBottom();
      return;
    }
    if (atBottom) readerMoved.current = false;
    if (!held.current) stickToBottom.current = atBottom;
    setShowJump(!atBottom);
    if (el.scrollTop < LOAD_OLDER_THRESHOLD_PX && hasMore && !loadingOlder) onLoadOlder();
  };

  return (
    <div
      className="message-scroll"
      ref={scrollRef}
      onScroll={onScroll}
      onClickCapture={holdToggle}
      onWheel={readerMoves}
      onTouchStart={readerMoves}
      onKeyDown={readerMoves}
      onPointerDown={readerMoves}
      data-testid="message-list"
    >
      {(hasMore || loadingOlder) && (
        <div className="load-older">
          {loadingOlder ? (
            <span className="muted">{t('common.loading')}</span>
          ) : (
            <button type="button" className="btn btn-small" onClick={onLoadOlder}>
              {t('chat.loadOlder')}
            </button>
          )}
        </div>
      )}
      <div className="message-canvas" style={{ height: totalSize }}>
        <div className="message-window" style={{ transform: `translateY(${items[0]?.start ?? 0}px)` }}>
          {items.map((item) => {
            const row = rows[item.index];
            if (!row) return null;
            return (
              <div key={item.key} data-index={item.index} data-key={item.key} ref={virtualizer.measureElement} className="message-row">
                <ChatRowView row={row} taskId={taskId} />
              </div>
            );
          })}
        </div>
      </div>
      {showJump && (
        <button
          type="button"
          className="jump-bottom"
          onClick={() => {
            stickToBottom.current = true;
            held.current = null;
            setHolding(false);
            setShowJump(false);
            scrollToBottom();
          }}
          title={plainT('chat.jumpToLatest')}
          aria-label={plainT('chat.jumpToLatest')}
        >
          <Icon name="download" size={14} />
        </button>
      )}
    </div>
  );
}
