// The virtualized conversation. Rows are measured as they render (markdown, tool output and
// approvals have unpredictable heights); the view follows the stream only while the reader is
// at the bottom, and paging older history keeps the visible row in place.
import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import { useVirtualizer, type VirtualItem } from '@tanstack/react-virtual';
import { useTranslation } from 'react-i18next';
import type { ChatRow } from '../state/chat-rows';
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
  // The first row in view and how far the viewport's top is below that row's top. Rows are
  // positioned by transform, so the browser's own scroll anchoring can't keep them in place when
  // older history is prepended; this does.
  const anchor = useRef<{ key: VirtualItem['key']; offset: number } | null>(null);
  const firstKey = useRef<string | undefined>(undefined);
  const [showJump, setShowJump] = useState(false);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 96,
    overscan: 6,
    getItemKey: (index) => rows[index]?.key ?? index,
  });

  const totalSize = virtualizer.getTotalSize();

  const scrollToBottom = useCallback(() => {
    const el = scrollRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, []);

  const rememberAnchor = useCallback(() => {
    const el = scrollRef.current;
    const canvas = canvasRef.current;
    if (!el || !canvas) return;
    const top = el.scrollTop - canvas.offsetTop;
    const item = virtualizer.getVirtualItems().find((i) => i.end > top);
    anchor.current = item ? { key: item.key, offset: top - item.start } : null;
  }, [virtualizer]);

  // Older rows arrived above: put the row that was in view back where it was. Rows not measured yet
  // count at their estimate; when they are measured, the virtualizer shifts the scroll position by
  // the difference for rows above the viewport, so the anchor stays put.
  useLayoutEffect(() => {
    const first = rows[0]?.key;
    const prepended = firstKey.current !== undefined && first !== firstKey.current;
    firstKey.current = first;
    const el = scrollRef.current;
    const canvas = canvasRef.current;
    const kept = anchor.current;
    if (prepended && !stickToBottom.current && kept && el && canvas) {
      const index = rows.findIndex((row) => row.key === kept.key);
      const item = index > 0 ? virtualizer.measurementsCache[index] : undefined;
      if (item) el.scrollTop = canvas.offsetTop + item.start + kept.offset;
    }
    rememberAnchor();
  }, [rows, virtualizer, rememberAnchor]);

  // Follow new content (rows or re-measured heights) while the reader is at the bottom.
  useLayoutEffect(() => {
    if (stickToBottom.current) scrollToBottom();
  }, [rows, totalSize, scrollToBottom]);

  const onScroll = () => {
    const el = scrollRef.current;
    if (!el) return;
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < BOTTOM_SLACK_PX;
    stickToBottom.current = atBottom;
    setShowJump(!atBottom);
    rememberAnchor();
    if (el.scrollTop < LOAD_OLDER_THRESHOLD_PX && hasMore && !loadingOlder) onLoadOlder();
  };

  const items = virtualizer.getVirtualItems();

  return (
    <div className="message-scroll" ref={scrollRef} onScroll={onScroll} data-testid="message-list">
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
              <div key={item.key} data-index={item.index} ref={virtualizer.measureElement} className="message-row">
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
