// The virtualized conversation. Rows are measured as they render (markdown, tool output and
// approvals have unpredictable heights); the view follows the stream only while the reader is
// at the bottom, and paging older history keeps the visible row in place.
import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useTranslation } from 'react-i18next';
import type { ChatRow } from '../state/chat-rows';
import { useToolCards } from '../state/tool-card-store';
import { ChatRowView } from './MessageRows';
import { Icon } from './Icon';

const BOTTOM_SLACK_PX = 48;
const LOAD_OLDER_THRESHOLD_PX = 200;

interface MessageListProps {
  rows: ChatRow[];
  taskId: string;
  hasMore: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
}

export function MessageList({ rows, taskId, hasMore, loadingOlder, onLoadOlder }: MessageListProps) {
  const { t } = useTranslation();
  const scrollRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);
  // The first row in view and where its top sits relative to the viewport's top, read from the
  // DOM. Rows are positioned by transform, so the browser's own scroll anchoring can't keep them in
  // place when older history is prepended or rows above the view are measured; this does. `element`:
  // a part of the row held in place instead of its top (a toggle the reader just clicked).
  const anchor = useRef<{ key: string; offset: number; element?: Element } | null>(null);
  // A tool card expanded or collapsed changes its row's height; re-checking the anchor in the same
  // commit keeps the view from moving for a frame until the row is measured again.
  const toolCardChanges = useToolCards((s) => s.changes);
  const [showJump, setShowJump] = useState(false);

  // Stable while the rows are: the virtualizer recomputes every row's offset whenever this
  // function changes, which a fresh closure per render made happen on every scroll frame.
  const getItemKey = useCallback((index: number) => rows[index]?.key ?? index, [rows]);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 96,
    overscan: 6,
    getItemKey,
  });
  // The anchor below does this for every change above the view, prepends included.
  virtualizer.shouldAdjustScrollPositionOnItemSizeChange = () => false;

  const totalSize = virtualizer.getTotalSize();
  const items = virtualizer.getVirtualItems();
  const firstRendered = items[0]?.index;

  const scrollToBottom = useCallback(() => {
    const el = scrollRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, []);

  /** Notes the first row in view; none when no rendered row is in view yet. */
  const rememberAnchor = () => {
    anchor.current = null;
    const el = scrollRef.current;
    if (!el) return;
    const view = el.getBoundingClientRect();
    for (const row of el.querySelectorAll<HTMLElement>('.message-row')) {
      const box = row.getBoundingClientRect();
      if (box.bottom > view.top && box.top < view.bottom && row.dataset.key) {
        anchor.current = { key: row.dataset.key, offset: box.top - view.top };
        return;
      }
    }
  };
  // Set while the anchor row has been scrolled to by estimate and the window has yet to render it.
  const jumping = useRef(false);
  const seen = useRef({ rows, totalSize, toolCardChanges });

  // Follow new content while the reader is at the bottom. Otherwise, when rows change (older pages
  // prepended) or are re-measured, put the anchor row back where it was; when only the window moved
  // (the reader scrolled), just note the new anchor.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    const canvas = canvasRef.current;
    const contentChanged = seen.current.rows !== rows || seen.current.totalSize !== totalSize || seen.current.toolCardChanges !== toolCardChanges;
    seen.current = { rows, totalSize, toolCardChanges };
    if (!el || !canvas) return;
    if (stickToBottom.current) {
      scrollToBottom();
      return;
    }
    const kept = anchor.current;
    if (kept && (contentChanged || jumping.current)) {
      const row = kept.element?.isConnected ? kept.element : el.querySelector<HTMLElement>(`.message-row[data-key="${CSS.escape(kept.key)}"]`);
      if (row) {
        jumping.current = false;
        const delta = row.getBoundingClientRect().top - el.getBoundingClientRect().top - kept.offset;
        if (Math.abs(delta) >= 1) el.scrollTop += delta;
        return;
      }
      // Not rendered at this scroll position (a page was just prepended): jump to its estimated
      // place; once the window renders it, the branch above settles it exactly.
      const index = rows.findIndex((r) => r.key === kept.key);
      const item = index >= 0 ? virtualizer.measurementsCache[index] : undefined;
      if (item) {
        jumping.current = true;
        el.scrollTop = canvas.offsetTop + item.start - kept.offset;
        return;
      }
    }
    rememberAnchor();
  }, [rows, totalSize, toolCardChanges, firstRendered, virtualizer, scrollToBottom]);

  // A toggle the reader clicks in a row (a tool card's output or arguments) is about to change its
  // height. Keep what they are looking at in place rather than follow the bottom: the card's top
  // when expanding (the text continues below it) or when it is in view, else the toggle itself
  // (collapsing a long output scrolled into).
  const holdToggle = (event: React.MouseEvent) => {
    const el = scrollRef.current;
    const toggle = (event.target as Element).closest('button[aria-expanded]');
    const row = toggle?.closest<HTMLElement>('.message-row');
    if (!el || !toggle || !row?.dataset.key) return;
    const card = toggle.closest('.tool-card') ?? row;
    const viewTop = el.getBoundingClientRect().top;
    const expanding = toggle.getAttribute('aria-expanded') === 'false';
    const held = expanding || card.getBoundingClientRect().top >= viewTop ? card : toggle;
    stickToBottom.current = false;
    jumping.current = false;
    anchor.current = { key: row.dataset.key, offset: held.getBoundingClientRect().top - viewTop, element: held };
  };

  const onScroll = () => {
    const el = scrollRef.current;
    if (!el) return;
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < BOTTOM_SLACK_PX;
    stickToBottom.current = atBottom;
    setShowJump(!atBottom);
    if (!jumping.current) rememberAnchor();
    if (el.scrollTop < LOAD_OLDER_THRESHOLD_PX && hasMore && !loadingOlder) onLoadOlder();
  };

  return (
    <div className="message-scroll" ref={scrollRef} onScroll={onScroll} onClickCapture={holdToggle} data-testid="message-list">
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
      <div className="message-canvas" ref={canvasRef} style={{ height: totalSize }}>
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
            setShowJump(false);
            scrollToBottom();
          }}
          title={t('chat.jumpToLatest')}
          aria-label={t('chat.jumpToLatest')}
        >
          <Icon name="download" size={14} />
        </button>
      )}
    </div>
  );
}
