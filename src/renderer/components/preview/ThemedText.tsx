import type { FaceRole, Theme } from '../../../shared/specs/themes';
import { styledRuns } from '../../lib/deck-preview';

/** Text split by script, each run in the theme's face for it (Latin vs CJK), as in the .pptx. */
export function ThemedText({ theme, role, text }: { theme: Theme; role: FaceRole; text: string }) {
  return (
    <>
      {styledRuns(theme, role, text).map((run, i) => (
        <span key={i} style={{ fontFamily: run.fontFamily }}>
          {run.text}
        </span>
      ))}
    </>
  );
}
