import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { type StatusFilter, useTasks } from '../state/tasks-store';
import { useApp } from '../state/app-store';
import { getApi } from '../state/api';
import { useUsage } from '../state/usage-store';
import { formatTokens, formatTotalCost } from '../lib/format';
import { Icon } from './Icon';
import { NewTaskMenu } from './NewTaskMenu';
import { ProjectsNav } from './ProjectsNav';
import { TaskItem } from './TaskItem';
import { ResizeHandle } from './ResizeHandle';
import { SIDEBAR_WIDTH, useLayout } from '../state/layout-store';
import { plainT } from '../i18n/plain';

const filters: StatusFilter[] = ['active', 'completed', 'abandoned', 'all'];

export function Sidebar() {
  const { t, i18n } = useTranslation();
  const tasks = useTasks((s) => s.tasks);
  const filter = useTasks((s) => s.filter);
  const query = useTasks((s) => s.query);
  const currentTaskId = useTasks((s) => s.currentTaskId);
  const loading = useTasks((s) => s.loading);
  const setFilter = useTasks((s) => s.setFilter);
  const setQuery = useTasks((s) => s.setQuery);
  const load = useTasks((s) => s.load);
  const view = useApp((s) => s.view);
  const setView = useApp((s) => s.setView);
  const usage = useUsage((s) => s.total);
  const profiles = useApp((s) => s.profiles);
  const tokens = usage ? formatTokens(usage.prompt_tokens + usage.completion_tokens) : '';
  // A bare "0" says nothing: the total has a currency only when every priced model shares one.
  const totalCost = usage ? formatTotalCost(usage.cost, profiles, i18n.language) : null;
  const sidebarOpen = useLayout((s) => s.sidebarOpen);
  const sidebarWidth = useLayout((s) => s.sidebarWidth);
  const toggleSidebar = useLayout((s) => s.toggleSidebar);
  const setSidebarWidth = useLayout((s) => s.setSidebarWidth);
  const setShortcutsOpen = useLayout((s) => s.setShortcutsOpen);

  // Search as the user types, but not on every keystroke. Not on mount: App loads the list at start,
  // and a second request then would discard the first answer and delay the list's first paint.
  const searched = useRef(query);
  useEffect(() => {
    if (searched.current === query) return;
    searched.current = query;
    const timer = setTimeout(() => void load(), 200);
    return () => clearTimeout(timer);
  }, [query, load]);

  if (!sidebarOpen) {
    // Collapsed: a rail that keeps the way back, Settings and the shortcuts one click away.
    return (
      <aside className="sidebar sidebar-rail" aria-label={plainT('tasks.heading')} data-testid="sidebar" data-collapsed="true">
        <button type="button" className="icon-btn" onClick={toggleSidebar} aria-label={plainT('layout.showSidebar')} title={plainT('layout.showSidebar')} aria-expanded={false} data-testid="sidebar-toggle">
          <Icon name="sidebar" />
        </button>
        <span className="sidebar-rail-spacer" />
        <button type="button" className="icon-btn" onClick={() => setShortcutsOpen(true)} aria-label={plainT('layout.shortcuts.title')} title={plainT('layout.shortcuts.title')} data-testid="shortcuts-open">
          <Icon name="keyboard" />
        </button>
        <button type="button" className="icon-btn" onClick={() => setView(view === 'settings' ? 'chat' : 'settings')} aria-label={plainT('nav.settings')} title={plainT('nav.settings')} data-testid="nav-settings">
          <Icon name="settings" />
        </button>
      </aside>
    );
  }

  return (
    <aside className="sidebar" aria-label={plainT('tasks.heading')} data-testid="sidebar">
      <div className="sidebar-header">
        <span className="brand">{t('app.name')}</span>
        <span className="transport-badge" title={plainT(`app.transportHint.${getApi().kind}`)}>
          {t(`app.transport.${getApi().kind}`)}
        </span>
        <button type="button" className="icon-btn sidebar-toggle" onClick={toggleSidebar} aria-label={plainT('layout.hideSidebar')} title={plainT('layout.hideSidebar')} aria-expanded={true} data-testid="sidebar-toggle">
          <Icon name="sidebar" />
        </button>
      </div>
      <div className="sidebar-controls">
        <NewTaskMenu />
        <label className="search">
          <Icon name="search" size={14} />
          <input
            type="search"
            className="search-input"
            placeholder={t('tasks.search')}
            aria-label={plainT('tasks.search')}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            data-testid="task-search"
          />
        </label>
        <div className="segmented" role="tablist" aria-label={plainT('tasks.filter')}>
          {filters.map((f) => (
            <button
              key={f}
              type="button"
              role="tab"
              aria-selected={filter === f}
              className={filter === f ? 'segment active' : 'segment'}
              onClick={() => setFilter(f)}
              data-testid={`task-filter-${f}`}
            >
              {t(`filters.${f}`)}
            </button>
          ))}
        </div>
      </div>
      <ProjectsNav />
      <ul className="task-list" data-testid="task-list" aria-busy={loading}>
        {tasks.map((task) => (
          <TaskItem key={task.id} task={task} selected={task.id === currentTaskId} />
        ))}
        {!loading && tasks.length === 0 && <li className="task-list-empty">{query.trim() ? t('tasks.noMatches') : t('tasks.empty')}</li>}
      </ul>
      <div className="sidebar-footer">
        <button
          type="button"
          className={view === 'settings' ? 'nav-btn active' : 'nav-btn'}
          onClick={() => setView(view === 'settings' ? 'chat' : 'settings')}
          data-testid="nav-settings"
        >
          <Icon name="settings" />
          {t('nav.settings')}
        </button>
        <button type="button" className="icon-btn" onClick={() => setShortcutsOpen(true)} aria-label={plainT('layout.shortcuts.title')} title={plainT('layout.shortcuts.title')} data-testid="shortcuts-open">
          <Icon name="keyboard" />
        </button>
        {usage && usage.prompt_tokens + usage.completion_tokens > 0 && (
          <span
            className="usage-total"
            title={plainT('usage.tooltip', { prompt: usage.prompt_tokens, completion: usage.completion_tokens })}
            data-testid="usage-total"
            data-dynamic
          >
            {totalCost === null ? t('usage.footerTokens', { tokens }) : t('usage.footer', { tokens, cost: totalCost })}
          </span>
        )}
      </div>
      <ResizeHandle
        label={plainT('layout.resizeSidebar')}
        edge="right"
        width={sidebarWidth}
        min={SIDEBAR_WIDTH.min}
        max={SIDEBAR_WIDTH.max}
        onResize={setSidebarWidth}
        testId="sidebar-resize"
      />
    </aside>
  );
}
