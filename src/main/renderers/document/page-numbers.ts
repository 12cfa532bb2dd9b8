// The page numbers written into the document. docx fills the table of contents in from the headings
// (a real `TOC \o "1-3" \h` field whose entries are PAGEREF fields, right-aligned at the section's
// text width, as Word writes them) and asks a page-number estimator for the page of each heading's
// bookmark. Folio's estimator answers with the pages LibreOffice laid the headings out on (paginate.ts),
// or with nothing (the numbers stay blank until Word updates the fields); the heading numbers at the
// start of each entry ("一、", "（一）", "1.") come from docx's reading of the numbering definitions.
import { type EstimatedPageNumbers, type IContext, type IXmlableObject, type PageNumberEstimator } from 'docx';
import { estimatePageNumbers } from 'docx/layout';

/** The body page number (as its footer shows it) of each heading, by Folio's bookmark name (`_Toc_folio_N`). */
export type HeadingPages = ReadonlyMap<string, number>;

type Element = Record<string, unknown>;

function isElement(value: unknown): value is Element {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function childrenOf(element: Element): unknown[] {
  const name = Object.keys(element)[0];
  const content = name === undefined ? undefined : element[name];
  return Array.isArray(content) ? content : content === undefined ? [] : [content];
}

function bookmarkName(element: Element): string | undefined {
  const start: unknown = element['w:bookmarkStart'];
  const parts: unknown[] = Array.isArray(start) ? start : [start];
  const attrs = parts.map((a) => (isElement(a) ? a._attr : undefined)).find(isElement);
  const name = attrs?.['w:name'];
  return typeof name === 'string' ? name : undefined;
}

/** The names of the bookmarks started in each paragraph of a formatted body, in order. */
export function bookmarksByParagraph(body: IXmlableObject): string[][] {
  const paragraphs: string[][] = [];
  const names = (element: Element): string[] => {
    const own = bookmarkName(element);
    return [...(own ? [own] : []), ...childrenOf(element).filter(isElement).flatMap(names)];
  };
  const walk = (element: Element): void => {
    if ('w:p' in element) {
      paragraphs.push(names(element));
      return;
    }
    for (const child of childrenOf(element)) if (isElement(child)) walk(child);
  };
  walk(body);
  return paragraphs;
}

/**
 * The estimator a document is given as its `pageNumbers`. docx bookmarks each heading it lists with a
 * name of its own (`_Toc<id>`, different on every build), in the same paragraph as Folio's stable
 * bookmark, so the page found for Folio's bookmark is given under both names.
 */
export function headingPageNumbers(pages: HeadingPages | undefined): PageNumberEstimator {
  const estimate = (body: IXmlableObject): EstimatedPageNumbers => {
    const bookmarks = new Map<string, string>();
    if (pages && pages.size > 0) {
      for (const names of bookmarksByParagraph(body)) {
        const page = names.map((n) => pages.get(n)).find((p) => p !== undefined);
        if (page !== undefined) for (const name of names) bookmarks.set(name, String(page));
      }
    }
    return { bookmarks };
  };
  const listNumbers = (body: IXmlableObject, context: IContext) => estimatePageNumbers.listNumbers?.(body, context) ?? new Map();
  return Object.assign(estimate, { listNumbers });
}
