// Characters that change how text reads without being seen: bidi controls (a right-to-left
// override makes `rm -rf /tmp/‮gpj.exe` display as something else), zero-width characters, and
// terminal escapes and other control characters. Shown to a person who must judge a command, a
// path or a diff, each is made visible: `\u202E` for invisible format characters, a control
// picture (␛, ␀ ...) for C0 controls, `\u009B` for C1 ones. Newlines and tabs stay as they are.

export interface TextSegment {
  text: string;
  /** True for a hidden character shown in escaped form (the UI styles it apart). */
  escaped: boolean;
}

/** Bidi embedding/override/isolate controls and marks, zero-width and other invisible format characters. */
const INVISIBLE = /[\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/u;
/** C0 controls except tab and newline, a carriage return not ending a line, DEL, and C1 controls. */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]|\r(?!\n)/u;
const ANY_HIDDEN = new RegExp(`${INVISIBLE.source}|${CONTROL.source}`, 'u');

function codePoint(ch: string): string {
  return `\\u${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The visible form of one hidden character. */
export function escapeHidden(ch: string): string {
  const code = ch.codePointAt(0) ?? 0;
  if (code < 0x20) return String.fromCodePoint(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  return codePoint(ch);
}

/** The text cut into plain runs and escaped hidden characters, in order. */
export function visibleSegments(text: string): TextSegment[] {
  const segments: TextSegment[] = [];
  let last = 0;
  // A fresh global regex per call: a shared one carries lastIndex from one caller to the next.
  for (const match of text.matchAll(new RegExp(ANY_HIDDEN.source, 'gu'))) {
    const at = match.index;
    if (at > last) segments.push({ text: text.slice(last, at), escaped: false });
    segments.push({ text: escapeHidden(match[0]), escaped: true });
    last = at + match[0].length;
  }
  if (last < text.length) segments.push({ text: text.slice(last), escaped: false });
  return segments;
}

/** The whole text with hidden characters escaped (for titles and other plain strings). */
export function visibleText(text: string): string {
  return visibleSegments(text)
    .map((s) => s.text)
    .join('');
}

export function hasHidden(text: string): boolean {
  return ANY_HIDDEN.test(text);
}
