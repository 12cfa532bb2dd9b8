// Artifacts (rendered decks, proposals) are immutable once written: a new version gets a new name.
import { TASK_SUBFOLDERS } from '../workspace/layout';

export const ARTIFACTS_DIR = TASK_SUBFOLDERS.artifact;

export const ARTIFACT_OVERWRITE_MESSAGE = 'artifacts are never overwritten; write a new name';
