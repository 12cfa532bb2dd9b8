import { type KeyboardEvent, type PointerEvent, type RefObject, useLayoutEffect, useRef, useState } from 'react';

interface ResizeHandleProps {
  label: string;
  /** Which edge of its column the handle sits on; dragging away from the column widens it. */
  edge: 'right' | 'left';
  /** The width the person chose; null while the stylesheet's holds (the column is measured then). */
  width: number | null;
  min: number;
  max: number;
  onResize: (px: number) => void;
  testId: string;
}

/** The width of the handle's column as drawn, kept current as it changes (null before the first layout). */
function useColumnWidth(handle: RefObject<HTMLDivElement | null>): number | null {
  const [width, setWidth] = useState<number | null>(null);
  useLayoutEffect(() => {
    const column = handle.current?.parentElement;
    if (!column) return;
    const measure = () => setWidth(Math.round(column.getBoundingClientRect().width));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(column);
    return () => observer.disconnect();
  }, [handle]);
  return width;
}

/**
 * A column's draggable edge, also moved with the arrow keys (16 px a press). Both start from the
 * column's width on screen: the stylesheet's default differs by tab and window width.
 */
export function ResizeHandle({ label, edge, width, min, max, onResize, testId }: ResizeHandleProps) {
  const ref = useRef<HTMLDivElement>(null);
  const drawn = useColumnWidth(ref);
  const current = drawn ?? width ?? min;
  const start = useRef<{ x: number; width: number } | null>(null);
  const sign = edge === 'right' ? 1 : -1;

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    start.current = { x: e.clientX, width: current };
    e.currentTarget.setPointerCapture(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (start.current) onResize(start.current.width + sign * (e.clientX - start.current.x));
  };
  const onPointerUp = () => {
    start.current = null;
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.key === 'ArrowRight' ? 16 : e.key === 'ArrowLeft' ? -16 : 0;
    if (step === 0) return;
    e.preventDefault();
    onResize(current + sign * step);
  };

  return (
    <div
      ref={ref}
      className={`resize-handle resize-handle-${edge}`}
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuenow={current}
      aria-valuemin={min}
      aria-valuemax={max}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onKeyDown={onKeyDown}
      data-testid={testId}
    />
  );
}
