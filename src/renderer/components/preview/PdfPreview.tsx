// Real page thumbnails of a PDF artifact, drawn by pdf.js in the browser. Loaded as its own chunk:
// pdf.js is large and only needed when a PDF is selected.
import { getDocument, GlobalWorkerOptions, type PDFDocumentProxy } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fileBytes, type FileRef } from '../../state/file-bytes';
import { toErrorInfo, type ErrorInfo } from '../../state/notices';
import { ErrorText } from '../ErrorText';
import { clampPage, PAGE_GAP, pageForKey, pdfColumns } from './pdf-pages';
import { useElementWidth } from './use-width';
import { plainT } from '../../i18n/plain';

GlobalWorkerOptions.workerSrc = workerUrl;

/** Enough pages to recognise the document without rasterising a whole book. */
export const MAX_PAGES = 8;

interface Loaded {
  doc: PDFDocumentProxy;
  pages: number;
}

/**
 * `page`: a cited page, shown first of the pages drawn and scrolled to. `paged`: one page at a time,
 * from `page` on, with previous/next buttons and the arrow, Page Up/Down, Home and End keys.
 */
export function PdfPreview({ file, page = null, paged = false }: { file: FileRef; page?: number | null; paged?: boolean }) {
  const { t } = useTranslation();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<ErrorInfo | null>(null);
  const gridRef = useRef<HTMLDivElement>(null);
  const width = useElementWidth(gridRef);
  // The file by its parts, not the object: a parent re-rendering with an equal ref loads nothing again.
  const { kind, path } = file;
  const owner = file.kind === 'task' ? file.taskId : file.libraryId;

  useEffect(() => {
    let alive = true;
    let doc: PDFDocumentProxy | null = null;
    setLoaded(null);
    setError(null);
    const load = async () => {
      try {
        const blob = await fileBytes(kind === 'task' ? { kind, taskId: owner, path } : { kind, libraryId: owner, path });
        const data = new Uint8Array(await blob.arrayBuffer());
        // No eval: the CSP forbids it, and pdf.js has a slower path that needs none.
        doc = await getDocument({ data, isEvalSupported: false }).promise;
        if (alive) setLoaded({ doc, pages: doc.numPages });
      } catch (err) {
        if (alive) setError(toErrorInfo(err));
      }
    };
    void load();
    return () => {
      alive = false;
      void doc?.destroy();
    };
  }, [kind, owner, path]);

  // The page a paged reader shows; it starts at the cited page once the document is known.
  const [at, setAt] = useState<number | null>(null);
  const pages = loaded?.pages ?? 0;
  useEffect(() => setAt(null), [kind, owner, path]);
  const cited = loaded && page !== null ? clampPage(page, loaded.pages) : 1;
  const first = paged ? (at ?? cited) : cited;
  const firstRef = useRef(first);
  firstRef.current = first;
  useEffect(() => {
    if (!paged || pages === 0) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.target instanceof HTMLElement && e.target.closest('input, textarea, select')) return;
      const next = pageForKey(e.key, firstRef.current, pages);
      if (next === null) return;
      e.preventDefault();
      setAt(next);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [paged, pages]);

  const shown = loaded ? (paged ? 1 : Math.min(loaded.pages - first + 1, MAX_PAGES)) : 0;
  const columns = pdfColumns(width, shown);
  const pageWidth = width > 0 ? Math.floor((width - (columns - 1) * PAGE_GAP) / columns) : 0;

  return (
    <div className="pdf-preview" data-testid="pdf-preview">
      <div className="preview-meta">
        <span className="badge">{t('preview.pdf')}</span>
        {loaded && <span className="muted">{t('preview.pageCount', { count: loaded.pages })}</span>}
        {!loaded && !error && <span className="spinner" aria-label={plainT('common.loading')} />}
      </div>
      {error && (
        <div className="inline-error" role="alert" data-testid="pdf-error">
          <strong>{t('preview.pdfFailed')}</strong> <ErrorText error={error} />
        </div>
      )}
      {paged && loaded && (
        <div className="pdf-pager" data-testid="pdf-pager">
          <button type="button" className="btn btn-small" onClick={() => setAt(clampPage(first - 1, pages))} disabled={first <= 1} data-testid="pdf-prev">
            {t('preview.prevPage')}
          </button>
          <span className="muted" aria-live="polite" data-testid="pdf-page-of">
            {t('preview.pageOf', { page: first, count: pages })}
          </span>
          <button type="button" className="btn btn-small" onClick={() => setAt(clampPage(first + 1, pages))} disabled={first >= pages} data-testid="pdf-next">
            {t('preview.nextPage')}
          </button>
        </div>
      )}
      <div className="pdf-grid" ref={gridRef} style={{ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` }}>
        {loaded &&
          pageWidth > 0 &&
          Array.from({ length: shown }, (_, i) => <PdfPage key={first + i} doc={loaded.doc} number={first + i} width={pageWidth} cited={page === first + i} />)}
      </div>
      {!paged && loaded && loaded.pages > shown && <div className="muted preview-note">{t('preview.morePages', { count: loaded.pages - shown })}</div>}
    </div>
  );
}

function PdfPage({ doc, number, width, cited = false }: { doc: PDFDocumentProxy; number: number; width: number; cited?: boolean }) {
  const { t } = useTranslation();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let cancelled = false;
    let cancelRender: (() => void) | null = null;
    const draw = async () => {
      const canvas = canvasRef.current;
      if (!canvas) return;
      try {
        const page = await doc.getPage(number);
        if (cancelled) return;
        const base = page.getViewport({ scale: 1 });
        // Sharp on high-DPI screens: draw at device pixels, show at CSS pixels.
        const ratio = window.devicePixelRatio || 1;
        const viewport = page.getViewport({ scale: (width / base.width) * ratio });
        canvas.width = Math.floor(viewport.width);
        canvas.height = Math.floor(viewport.height);
        canvas.style.width = `${width}px`;
        canvas.style.height = `${Math.floor(viewport.height / ratio)}px`;
        const task = page.render({ canvas, viewport });
        cancelRender = () => task.cancel();
        await task.promise;
      } catch (err) {
        // A cancelled render (the panel resized or closed) is not a failure.
        if (!cancelled && !(err instanceof Error && err.name === 'RenderingCancelledException')) setFailed(true);
      }
    };
    void draw();
    return () => {
      cancelled = true;
      cancelRender?.();
    };
  }, [doc, number, width]);

  return (
    <figure className={cited ? 'pdf-page cited' : 'pdf-page'} data-testid="pdf-page" data-page={number} aria-current={cited ? 'page' : undefined}>
      {failed ? <div className="slide-image-placeholder">{t('preview.pageFailed')}</div> : <canvas ref={canvasRef} />}
      <figcaption className="muted">{t('preview.pageN', { number })}</figcaption>
    </figure>
  );
}
