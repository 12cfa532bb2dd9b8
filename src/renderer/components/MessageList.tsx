// The virtualized conversation. Rows are measured as they render (markdown, tool output and
// approvals have unpredictable heights); the view follows the stream only while the reader is
// at the bottom, and paging older history keeps the visible row in place.
import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
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
  const stickToBottom = useRef(true);
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
      <div className="message-canvas" style={{ height: totalSize }}>
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
