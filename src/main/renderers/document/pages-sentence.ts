// How a render says how many pages the document has, for the model (render_document) and `folio render`.
import { type DocumentPages } from './report';

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The page count as the model should read it: laid out, or estimated and why. */
export function pagesSentence(pages: DocumentPages | undefined, estimate: number): string {
  if (pages?.mode === 'rendered') {
    const missing = pages.contents.filter((e) => e.page === null).length;
    const contents = missing === 0 ? 'the contents list every heading with its page' : `${plural(missing, 'heading')} not found on the pages (no number in the contents)`;
    return `${plural(pages.total, 'page')} (${pages.body} body), laid out by LibreOffice; ${contents}.`;
  }
  const reason = pages?.reason ?? 'pages not laid out';
  return `about ${plural(pages?.total ?? estimate, 'page')} (estimate: ${reason}); the contents' page numbers appear when Word updates fields (it asks on opening).`;
}
