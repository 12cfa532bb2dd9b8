import { type KeyboardEvent, type PointerEvent, useRef } from 'react';

interface ResizeHandleProps {
  label: string;
  /** Which edge of its column the handle sits on; dragging away from the column widens it. */
  edge: 'right' | 'left';
  width: number;
  min: number;
  max: number;
  onResize: (px: number) => void;
  testId: string;
}

/** A column's draggable edge, also moved with the arrow keys (16 px a press). */
export function ResizeHandle({ label, edge, width, min, max, onResize, testId }: ResizeHandleProps) {
  const start = useRef<{ x: number; width: number } | null>(null);
  const sign = edge === 'right' ? 1 : -1;

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    start.current = { x: e.clientX, width };
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
    onResize(width + sign * step);
  };

  return (
    <div
      className={`resize-handle resize-handle-${edge}`}
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuenow={width}
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
