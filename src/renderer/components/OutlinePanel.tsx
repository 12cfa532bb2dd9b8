// The deck outline above the composer: the storyline the agent proposed, as an editable list the
// person reorders (drag, or the keyboard: focus a row's handle, Space, arrows, Space), edits, trims
// and approves; once approved it is shown read-only with a way to edit it again.
import { useEffect, useMemo, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import {
  type Announcements,
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  type UniqueIdentifier,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { arrayMove, SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { DECK_LAYOUTS, type DeckLayout } from '../../shared/specs/deck';
import type { DeckOutline } from '../../shared/specs/deck-outline';
import { checkDraft, type DraftRow } from '../lib/outline-draft';
import { useChat } from '../state/chat-store';
import { useFiles } from '../state/files-store';
import { isLiveRunActive } from '../state/live-run';
import { useOutline } from '../state/outline-store';
import { outlineCollapsed, rememberOutlineCollapsed } from '../state/task-view-prefs';
import { Icon } from './Icon';
import { ErrorText } from './ErrorText';
import { plainT } from '../i18n/plain';

export function OutlinePanel({ taskId }: { taskId: string }) {
  const { t } = useTranslation();
  const outline = useOutline((s) => s.outline);
  const problem = useOutline((s) => s.problem);
  const draft = useOutline((s) => s.draft);
  const dirty = useOutline((s) => s.dirty);
  const busy = useOutline((s) => s.busy);
  const error = useOutline((s) => s.error);
  const loadedFor = useOutline((s) => s.taskId);
  const actions = useOutline.getState();
  const running = useChat((s) => isLiveRunActive(s.live));
  const shownStatus = outline?.status ?? 'proposed';
  const [collapsed, setCollapsedState] = useState(() => outlineCollapsed(taskId, shownStatus));
  const setCollapsed = (next: boolean) => {
    setCollapsedState(next);
    rememberOutlineCollapsed(taskId, shownStatus, next);
  };
  const check = useMemo(() => (draft ? checkDraft(draft) : null), [draft]);

  useEffect(() => {
    void useOutline.getState().load(taskId);
  }, [taskId]);

  // A proposed outline is open to be read; an approved one folds away so the chat shows the run
  // (and the questions it waits on), unless the person chose otherwise for this task.
  useEffect(() => {
    if (loadedFor === taskId) setCollapsedState(outlineCollapsed(taskId, shownStatus));
  }, [taskId, loadedFor, shownStatus, outline]);
  // Editing (again) needs the rows on screen.
  const editing = draft !== null;
  useEffect(() => {
    if (editing) setCollapsedState(false);
  }, [editing]);

  if (loadedFor !== taskId || (!outline && !problem)) return null;
  const status = outline?.status ?? 'proposed';
  const count = draft?.length ?? outline?.slides.length ?? 0;
  const blocked = busy || running;

  return (
    <section className="outline-panel" aria-label={plainT('outline.heading')} data-testid="outline-panel" data-status={status} data-editing={draft !== null}>
      <div className="outline-header">
        <button type="button" className="outline-toggle" aria-expanded={!collapsed} onClick={() => setCollapsed(!collapsed)} data-testid="outline-toggle">
          <Icon name="chevron" size={12} className={collapsed ? 'outline-chevron' : 'outline-chevron open'} />
          <strong>{t('outline.heading')}</strong>
          <span className={`outline-status status-${status}`} data-testid="outline-status">
            {t(`outline.status.${status}`)}
          </span>
          <span className="muted">{t('outline.slideCount', { count })}</span>
        </button>
        <div className="outline-actions">
          {draft ? (
            <>
              {(dirty || outline?.status === 'approved') && (
                <button type="button" className="btn btn-small" onClick={actions.cancelEditing} disabled={busy} data-testid="outline-discard">
                  {outline?.status === 'approved' ? t('common.cancel') : t('outline.discard')}
                </button>
              )}
              <button type="button" className="btn btn-small" onClick={() => void actions.save()} disabled={blocked || !dirty || !check?.ok} data-testid="outline-save">
                {t('common.save')}
              </button>
              <button
                type="button"
                className="btn btn-small btn-primary"
                onClick={() => void actions.approve()}
                disabled={blocked || !check?.ok}
                title={running ? plainT('outline.waitForRun') : plainT('outline.approveHint')}
                data-testid="outline-approve"
              >
                {busy && <span className="spinner" />}
                <Icon name="check" size={12} />
                {t('outline.approve')}
              </button>
            </>
          ) : (
            outline && (
              <button type="button" className="btn btn-small" onClick={actions.startEditing} disabled={blocked} data-testid="outline-edit-again">
                <Icon name="edit" size={12} />
                {t('outline.editAgain')}
              </button>
            )
          )}
        </div>
      </div>
      {problem && (
        <div className="inline-error" role="alert" data-testid="outline-problem">
          {t('outline.damaged', { reason: problem })}
        </div>
      )}
      {error && (
        <div className="inline-error" role="alert" data-testid="outline-error">
          <ErrorText error={error} />
          <button type="button" className="icon-btn" onClick={actions.dismissError} aria-label={plainT('common.dismiss')}>
            <Icon name="close" size={12} />
          </button>
        </div>
      )}
      {!collapsed && (
        <div className="outline-body">
          {draft ? (
            <OutlineEditor rows={draft} errors={check && !check.ok ? check.byRow : null} general={check && !check.ok ? check.general : []} />
          ) : (
            outline && <OutlineView outline={outline} />
          )}
        </div>
      )}
    </section>
  );
}

function layoutLabel(t: TFunction, layout: DeckLayout): string {
  return t(`preview.layout.${layout}`);
}

function OutlineView({ outline }: { outline: DeckOutline }) {
  const { t } = useTranslation();
  return (
    <ol className="outline-rows readonly" data-testid="outline-rows">
      {outline.slides.map((row, i) => (
        <li key={row.id} className="outline-row" data-testid="outline-row" data-row-id={row.id}>
          <span className="outline-number">{i + 1}</span>
          <div className="outline-fields">
            <div className="outline-line">
              <span className="outline-title-text" data-testid="outline-title-text">
                {row.title}
              </span>
              <span className="outline-layout-chip">{layoutLabel(t, row.layout)}</span>
            </div>
            {row.points.length > 0 && (
              <ul className="outline-points-list">
                {row.points.map((p, k) => (
                  <li key={k}>{p}</li>
                ))}
              </ul>
            )}
            {row.sources.length > 0 && (
              <div className="outline-sources-text muted">
                {row.sources.map((s) => (s.pages ? t('outline.sourcePages', { file: s.file, pages: s.pages }) : s.file)).join(' · ')}
              </div>
            )}
          </div>
        </li>
      ))}
    </ol>
  );
}

function OutlineEditor({ rows, errors, general }: { rows: DraftRow[]; errors: Map<number, string[]> | null; general: string[] }) {
  const { t } = useTranslation();
  const { setRows, addRow } = useOutline.getState();
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));
  const keys = rows.map((r) => r.key);
  const position = (id: UniqueIdentifier | undefined) => keys.indexOf(String(id)) + 1;

  const announcements: Announcements = {
    onDragStart: ({ active }) => t('outline.dnd.picked', { number: position(active.id) }),
    onDragOver: ({ over }) => (over ? t('outline.dnd.over', { number: position(over.id) }) : t('outline.dnd.outside')),
    onDragEnd: ({ over }) => (over ? t('outline.dnd.dropped', { number: position(over.id) }) : t('outline.dnd.cancelled')),
    onDragCancel: () => t('outline.dnd.cancelled'),
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = keys.indexOf(String(active.id));
    const to = keys.indexOf(String(over.id));
    if (from >= 0 && to >= 0) setRows(arrayMove(rows, from, to));
  };

  return (
    <>
      {general.length > 0 && (
        <div className="inline-error" role="alert">
          {general.join('; ')}
        </div>
      )}
      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        onDragEnd={onDragEnd}
        accessibility={{ announcements, screenReaderInstructions: { draggable: t('outline.dnd.instructions') } }}
      >
        <SortableContext items={keys} strategy={verticalListSortingStrategy}>
          <ol className="outline-rows" data-testid="outline-rows">
            {rows.map((row, i) => (
              <SortableRow key={row.key} row={row} index={i} errors={errors?.get(i) ?? []} />
            ))}
          </ol>
        </SortableContext>
      </DndContext>
      <button type="button" className="btn btn-small outline-add" onClick={() => addRow()} data-testid="outline-add-row">
        <Icon name="plus" size={12} />
        {t('outline.addRow')}
      </button>
    </>
  );
}

function SortableRow({ row, index, errors }: { row: DraftRow; index: number; errors: string[] }) {
  const { t } = useTranslation();
  const { updateRow, updateSource, removeRow, addRow } = useOutline.getState();
  const files = useFiles((s) => s.files);
  const sourceFiles = useMemo(() => files.filter((f) => f.kind === 'source').map((f) => f.path), [files]);
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: row.key });
  const number = index + 1;
  const pointLines = Math.min(6, Math.max(2, row.points.split('\n').length));

  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      className={isDragging ? 'outline-row dragging' : 'outline-row'}
      data-testid="outline-row"
      data-row-id={row.id ?? ''}
    >
      <button
        type="button"
        ref={setActivatorNodeRef}
        className="icon-btn outline-handle"
        aria-label={plainT('outline.moveRow', { number })}
        data-testid="outline-row-handle"
        {...attributes}
        {...listeners}
      >
        <Icon name="grip" size={14} />
      </button>
      <span className="outline-number">{number}</span>
      <div className="outline-fields">
        <div className="outline-line">
          <input
            className="input outline-title"
            value={row.title}
            onChange={(e) => updateRow(row.key, { title: e.target.value })}
            placeholder={t('outline.titlePlaceholder')}
            aria-label={plainT('outline.titleLabel', { number })}
            data-testid="outline-title"
          />
          <select
            className="select outline-layout"
            value={row.layout}
            onChange={(e) => updateRow(row.key, { layout: e.target.value as DeckLayout })}
            aria-label={plainT('outline.layoutLabel', { number })}
            data-testid="outline-layout"
          >
            {DECK_LAYOUTS.map((layout) => (
              <option key={layout} value={layout}>
                {layoutLabel(t, layout)}
              </option>
            ))}
          </select>
          <button type="button" className="icon-btn" onClick={() => addRow(row.key)} aria-label={plainT('outline.addRowAfter', { number })} title={plainT('outline.addRowAfter', { number })} data-testid="outline-add-after">
            <Icon name="plus" size={12} />
          </button>
          <button type="button" className="icon-btn" onClick={() => removeRow(row.key)} aria-label={plainT('outline.deleteRow', { number })} title={plainT('outline.deleteRow', { number })} data-testid="outline-delete-row">
            <Icon name="trash" size={12} />
          </button>
        </div>
        <textarea
          className="input outline-points"
          rows={pointLines}
          value={row.points}
          onChange={(e) => updateRow(row.key, { points: e.target.value })}
          placeholder={t('outline.pointsPlaceholder')}
          aria-label={plainT('outline.pointsLabel', { number })}
          data-testid="outline-points"
        />
        <div className="outline-sources">
          {row.sources.map((source, k) => (
            <span className="outline-source" key={k} data-testid="outline-source">
              <select
                className="select"
                value={source.file}
                onChange={(e) => updateSource(row.key, k, { file: e.target.value })}
                aria-label={plainT('outline.sourceFile')}
              >
                {!sourceFiles.includes(source.file) && <option value={source.file}>{source.file || t('outline.chooseFile')}</option>}
                {sourceFiles.map((path) => (
                  <option key={path} value={path}>
                    {path}
                  </option>
                ))}
              </select>
              <input
                className="input outline-pages"
                value={source.pages}
                onChange={(e) => updateSource(row.key, k, { pages: e.target.value })}
                placeholder={t('outline.pagesPlaceholder')}
                aria-label={plainT('outline.pages')}
              />
              <button
                type="button"
                className="icon-btn"
                onClick={() => updateRow(row.key, { sources: row.sources.filter((_, j) => j !== k) })}
                aria-label={plainT('outline.removeSource')}
              >
                <Icon name="close" size={10} />
              </button>
            </span>
          ))}
          <button
            type="button"
            className="btn btn-small outline-add-source"
            onClick={() => updateRow(row.key, { sources: [...row.sources, { file: sourceFiles[0] ?? '', pages: '' }] })}
            data-testid="outline-add-source"
          >
            <Icon name="plus" size={10} />
            {t('outline.addSource')}
          </button>
        </div>
        {errors.length > 0 && (
          <div className="outline-row-error" role="alert" data-testid="outline-row-error">
            {errors.join('; ')}
          </div>
        )}
      </div>
    </li>
  );
}
