// The task folder as the code-running tools' programs see it, which is how the model must be told it:
// the host path with bubblewrap, /workspace in a container (where the worker keeps tenants' files is
// none of the model's business).
import { defaultExecutor } from '../sandbox/select-executor';

export function shownTaskFolder(root: string): string {
  return defaultExecutor().shownRoot(root);
}
