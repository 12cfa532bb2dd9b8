// Page arithmetic of the one-page PDF reader (the library file dialog).

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
