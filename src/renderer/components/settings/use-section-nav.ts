import { useRef, useState } from 'react';

const SCROLL_KEYS = new Set(['ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End', ' ']);

/**
 * The settings navigation: which section it marks as the body scrolls, and going to one when chosen.
 * Sections are found in the body by their test id.
 */
export function useSectionNav<Id extends string>(sections: readonly { id: Id }[], first: Id) {
  const bodyRef = useRef<HTMLDivElement>(null);
  const [current, setCurrent] = useState<Id>(first);
  // A section chosen in the navigation stays marked while the page scrolls to it (one near the end
  // cannot reach the top), until the person scrolls themselves.
  const chosen = useRef(false);

  const sectionElement = (id: Id) => bodyRef.current?.querySelector<HTMLElement>(`[data-testid="${id}"]`) ?? null;
  const goTo = (id: Id) => {
    const el = sectionElement(id);
    if (!el) return;
    el.scrollIntoView({ block: 'start' });
    // Keyboard users land in the section they chose, not back at the navigation.
    el.querySelector<HTMLElement>('h2')?.focus({ preventScroll: true });
    chosen.current = true;
    setCurrent(id);
  };
  // Only the person scrolling lets go of the chosen section: a click on a control inside it (restarting
  // an MCP server) or content that grows below it is not leaving it.
  const release = () => {
    chosen.current = false;
  };
  const releaseOnScrollKey = (event: React.KeyboardEvent) => {
    const target = event.target as HTMLElement;
    if (target.closest('input, textarea, select, [contenteditable="true"]')) return;
    if (SCROLL_KEYS.has(event.key)) release();
  };
  // A press on the scroller itself (its scrollbar), not on what it holds.
  const releaseOnScrollbar = (event: React.PointerEvent) => {
    if (event.target === event.currentTarget) release();
  };
  // The section at the top of the view is the one the navigation marks.
  const onScroll = () => {
    const body = bodyRef.current;
    if (!body || chosen.current) return;
    const top = body.getBoundingClientRect().top + 24;
    let at: Id = sections[0].id;
    for (const s of sections) {
      const el = sectionElement(s.id);
      if (el && el.getBoundingClientRect().top <= top) at = s.id;
    }
    if (body.scrollTop + body.clientHeight >= body.scrollHeight - 2) at = sections[sections.length - 1].id;
    setCurrent(at);
  };

  const bodyProps = { ref: bodyRef, onScroll, onWheel: release, onPointerDown: releaseOnScrollbar, onKeyDown: releaseOnScrollKey, onTouchStart: release };
  return { current, goTo, bodyProps };
}
