// Drawn text with values put in. The page's `text-autospace` draws the Chinese–Latin gap beside
// letters and digits only, so a value that starts or ends with a mark a reader takes as part of a
// Latin word ("¥0.07", "/tmp/x", "−0.8") would touch the Chinese beside it ("费用¥0.07"). There the
// page draws the same gap itself, as wide as autospace's; plain text types it (plain-spacing.ts).
import { Fragment, isValidElement, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { markedSegments, markedTranslate, needsUndrawnGap } from '../../shared/locales/plain-spacing';
import { i18n } from './index';
import { templateOf } from './plain';

const marked = markedTranslate((key: string, values: Record<string, unknown>) => String(i18n.t(key, values)), templateOf);

// An element put in as a value (a message drawn by spacedT itself) travels through i18next as
// `SLOT<n>SLOT` and is put back in the drawn message.
const SLOT = '\ue002';
const slots = new RegExp(`${SLOT}(\\d+)${SLOT}`, 'u');

const firstChar = (text: string): string => Array.from(text)[0] ?? '';
const lastChar = (text: string): string => Array.from(text).at(-1) ?? '';

function withElements(text: string, elements: readonly ReactNode[]): ReactNode {
  const parts = text.split(slots);
  if (parts.length === 1) return text;
  // split() with a group: text, slot number, text, slot number, …
  return parts.map((part, i) => (i % 2 === 0 ? part : <Fragment key={`slot${i}`}>{elements[Number(part)]}</Fragment>));
}

/** The message as drawn: each value whose edge meets Chinese at a mark is set off by the autospace gap. */
export function spacedT(key: string, values: Record<string, unknown> = {}): ReactNode {
  const elements: ReactNode[] = [];
  const strings = Object.fromEntries(
    Object.entries(values).map(([name, value]) => {
      if (!isValidElement(value) && !Array.isArray(value)) return [name, value];
      elements.push(value as ReactNode);
      return [name, `${SLOT}${elements.length - 1}${SLOT}`];
    }),
  );
  const segments = markedSegments(marked(key, strings));
  if (segments.length === 1 && !segments[0].value) return withElements(segments[0].text, elements);
  return segments.map((segment, i) => {
    const before = segments[i - 1]?.text;
    const after = segments[i + 1]?.text;
    const start = segment.value && before !== undefined && needsUndrawnGap(lastChar(before), firstChar(segment.text));
    const end = segment.value && after !== undefined && needsUndrawnGap(lastChar(segment.text), firstChar(after));
    const text = withElements(segment.text, elements);
    if (!start && !end) return <Fragment key={i}>{text}</Fragment>;
    return (
      <span key={i} className={[start && 'gap-start', end && 'gap-end'].filter(Boolean).join(' ')}>
        {text}
      </span>
    );
  });
}

/** `spacedT` for a component: it re-renders when the language changes, as `useTranslation` does. */
export function useSpacedT(): typeof spacedT {
  useTranslation();
  return spacedT;
}
