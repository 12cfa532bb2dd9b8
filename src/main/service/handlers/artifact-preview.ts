// The renderers (deck and document specs, pptxgenjs, docx) load when a preview, an export or a deck
// version is first asked for, not at start-up.
import type * as ArtifactPreview from '../../renderers/artifact-preview';

export async function readArtifactPreview(...args: Parameters<typeof ArtifactPreview.readArtifactPreview>): ReturnType<typeof ArtifactPreview.readArtifactPreview> {
  return (await import('../../renderers/artifact-preview')).readArtifactPreview(...args);
}
