// Text a person must judge (commands, paths, diffs, tool arguments), with hidden characters shown.
import { visibleSegments } from '../lib/visible-text';

export function VisibleText({ text }: { text: string }) {
  return (
    <>
      {visibleSegments(text).map((segment, i) =>
        segment.escaped ? (
          <span key={i} className="hidden-char" data-testid="hidden-char">
            {segment.text}
          </span>
        ) : (
          segment.text
        ),
      )}
    </>
  );
}
