// The library's search box: ranked hits with their file, page and a snippet whose matches
// are <mark> elements built from the hit's ranges (the snippet is text, never HTML).
import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LibraryHit, LibrarySearchResult } from '../../shared/contract';
import { splitHighlights } from '../lib/highlights';
import { getApi } from '../state/api';
import { toErrorInfo, type ErrorInfo } from '../state/notices';
import { Icon } from './Icon';
import { ErrorText } from './ErrorText';
import { LibraryFileDialog } from './LibraryFileDialog';
import { plainT } from '../i18n/plain';

const HIT_LIMIT = 20;

type SearchState = { status: 'idle' } | { status: 'searching'; q: string } | { status: 'done'; q: string; result: LibrarySearchResult } | { status: 'failed'; error: ErrorInfo };

export function HitSnippet({ snippet, highlights }: Pick<LibraryHit, 'snippet' | 'highlights'>) {
  return (
    <span className="library-snippet" data-testid="library-hit-snippet">
      {splitHighlights(snippet, highlights).map((part, i) => (part.marked ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>))}
    </span>
  );
}

/** The file's name without its folders; the full path is the title. */
function fileName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** `onOpen`: the hit's file opens when its name is clicked. */
export function LibraryHits({ result, onOpen }: { result: LibrarySearchResult; onOpen?: (hit: LibraryHit) => void }) {
  const { t } = useTranslation();
  return (
    <div className="library-results" data-testid="library-results" data-mode={result.mode}>
      <p className="library-search-mode muted">
        {t(`library.mode.${result.mode}`)}
        {result.note && (
          <span className="library-search-note" data-testid="library-search-note">
            {' · '}
            {result.note}
          </span>
        )}
      </p>
      {result.hits.length === 0 ? (
        <p className="muted" data-testid="library-no-hits">
          {t('library.noHits')}
        </p>
      ) : (
        <ol className="library-hits">
          {result.hits.map((hit) => (
            <li key={`${hit.library}:${hit.path}:${hit.page}`} className="library-hit" data-testid="library-hit" data-path={hit.path} data-page={hit.page}>
              <div className="library-hit-head">
                <Icon name="file" size={14} />
                {onOpen ? (
                  <button
                    type="button"
                    className="library-hit-file library-hit-open"
                    onClick={() => onOpen(hit)}
                    title={plainT('library.openHit', { file: hit.path, page: hit.page })}
                    data-testid="library-hit-open"
                  >
                    {fileName(hit.path)}
                  </button>
                ) : (
                  <span className="library-hit-file" title={hit.task_path}>
                    {fileName(hit.path)}
                  </span>
                )}
                <span className="library-hit-page" data-testid="library-hit-page">
                  {t('library.page', { page: hit.page })}
                </span>
                {hit.library === 'personal' && <span className="badge">{t('library.personalBadge')}</span>}
                {hit.matched_by !== 'text' && <span className="badge">{t(`library.matchedBy.${hit.matched_by}`)}</span>}
              </div>
              <HitSnippet snippet={hit.snippet} highlights={hit.highlights} />
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

export function LibrarySearch({ libraryId }: { libraryId: string }) {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const [state, setState] = useState<SearchState>({ status: 'idle' });
  const [opened, setOpened] = useState<LibraryHit | null>(null);
  const close = useCallback(() => setOpened(null), []);
  // A slow answer for an earlier query must not replace a newer one.
  const generation = useRef(0);

  const search = async () => {
    const query = q.trim();
    if (query === '') return;
    const mine = ++generation.current;
    setState({ status: 'searching', q: query });
    try {
      const result = await getApi().client.searchLibrary({ project_id: libraryId, q: query, limit: HIT_LIMIT });
      if (mine === generation.current) setState({ status: 'done', q: query, result });
    } catch (err) {
      if (mine === generation.current) setState({ status: 'failed', error: toErrorInfo(err) });
    }
  };

  return (
    <section className="library-search" aria-label={plainT('library.searchHeading')}>
      <form
        className="library-search-form"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          void search();
        }}
      >
        <label className="search library-search-box">
          <Icon name="search" size={14} />
          <input
            type="search"
            className="search-input"
            placeholder={t('library.searchPlaceholder')}
            aria-label={plainT('library.searchHeading')}
            value={q}
            maxLength={500}
            onChange={(e) => setQ(e.target.value)}
            data-testid="library-search-input"
          />
        </label>
        <button type="submit" className="btn btn-small" disabled={q.trim() === '' || state.status === 'searching'} data-testid="library-search-submit">
          {t('library.search')}
        </button>
      </form>
      <div aria-live="polite">
        {state.status === 'searching' && (
          <p className="progress" data-testid="library-searching">
            <span className="spinner spinner-tiny" />
            {t('library.searching')}
          </p>
        )}
        {state.status === 'failed' && (
          <div className="inline-error" role="alert" data-testid="library-search-error">
            <ErrorText error={state.error} />
          </div>
        )}
        {state.status === 'done' && <LibraryHits result={state.result} onOpen={setOpened} />}
      </div>
      {opened && <LibraryFileDialog hit={opened} onClose={close} />}
    </section>
  );
}
