// Tool results that say a call never ran because of the person (denied, superseded). The text is
// what the model reads; the UI reads the same prefix to show "Denied" or "Not run" instead of "Failed".

export const DENIED_RESULT = 'The person denied this call.';
export const NOT_RUN_NEW_MESSAGE = 'Not run: the person sent a new message before this call was approved or finished.';
export const NOT_RUN_REPLACED = 'Not run: the person replaced this reply (regenerated it or edited their message) before this call was approved or finished.';

export type ToolOutcome = 'ok' | 'error' | 'denied' | 'not-run';

/** How a finished call ended, for a person. */
export function toolOutcome(result: { isError: boolean; preview: string }): ToolOutcome {
  if (!result.isError) return 'ok';
  if (result.preview.startsWith(DENIED_RESULT)) return 'denied';
  if (result.preview.startsWith(NOT_RUN_NEW_MESSAGE) || result.preview.startsWith(NOT_RUN_REPLACED)) return 'not-run';
  return 'error';
}
