// How much of a finished tool call's output the conversation shows before the person asks for
// more. A long list stays cheap to lay out and to read past when each card shows a few lines (as
// VS Code's and Copilot's chats do); an error shows a few more, since its first lines are what the
// person needs.

export interface PreviewLimits {
  lines: number;
  /** In columns: a wide (CJK) character counts two, so Chinese output wraps to as few lines as English. */
  columns: number;
}

export const COLLAPSED_OUTPUT: PreviewLimits = { lines: 6, columns: 400 };
export const COLLAPSED_ERROR: PreviewLimits = { lines: 12, columns: 800 };

/** East Asian wide and fullwidth characters (Hangul, CJK, kana, fullwidth forms, CJK extensions). */
function isWide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x20000 && code <= 0x3fffd)
  );
}

/**
 * The start of `text` within `limits` (whichever of lines and columns comes first), or null when
 * the whole text fits and there is nothing to expand. A cut never splits a surrogate pair.
 */
export function collapsedPreview(text: string, limits: PreviewLimits): string | null {
  let columns = 0;
  let newlines = 0;
  let end = 0;
  while (end < text.length) {
    const code = text.codePointAt(end) ?? 0;
    if (code === 10 && ++newlines === limits.lines) break;
    const width = isWide(code) ? 2 : 1;
    if (columns + width > limits.columns) break;
    columns += width;
    end += code > 0xffff ? 2 : 1;
  }
  // A trailing newline alone is not more to show.
  const rest = text.slice(end);
  if (rest === '' || rest === '\n') return null;
  return text.slice(0, end).replace(/\n+$/u, '');
}
