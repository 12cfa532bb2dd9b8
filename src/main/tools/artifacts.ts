// Artifacts (rendered decks, proposals) are immutable once written: a new version gets a new name.
export const ARTIFACTS_DIR = 'artifacts';

export function isUnderArtifacts(relPath: string): boolean {
  return relPath.split('/')[0]?.toLowerCase() === ARTIFACTS_DIR;
}

export const ARTIFACT_OVERWRITE_MESSAGE = 'artifacts are never overwritten; write a new name';
