// Page arithmetic of the PDF previews: the one-page reader (the library file dialog) and the columns of the page list.

/** The narrowest a page is drawn for its text to be read (an A4 page's body text at about 6 px). */
export const READABLE_PAGE_WIDTH = 360;
/** The gap between two columns of pages (the grid's CSS gap). */
export const PAGE_GAP = 10;

/** Pages side by side only when there are two to show and each still gets a readable width. */
export function pdfColumns(width: number, shown: number): 1 | 2 {
  return shown > 1 && width >= 2 * READABLE_PAGE_WIDTH + PAGE_GAP ? 2 : 1;
}

/** A page number kept within the document. */
export function clampPage(page: number, pages: number): number {
  return Math.min(Math.max(1, Math.round(page)), Math.max(1, pages));
}

/** The page a key moves a one-page reader to, or null for a key it leaves alone. */
export function pageForKey(key: string, at: number, pages: number): number | null {
  switch (key) {
    case 'ArrowLeft':
    case 'PageUp':
      return clampPage(at - 1, pages);
    case 'ArrowRight':
    case 'PageDown':
      return clampPage(at + 1, pages);
    case 'Home':
      return 1;
    case 'End':
      return clampPage(pages, pages);
    default:
      return null;
  }
}
