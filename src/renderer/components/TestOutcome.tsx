// What a person gets back from a Test or a Save button, as one block in every form (setup, Settings'
// services and models): a pass as the form shows it, a typed server error explained in the person's
// language, or a failure the form heads itself with the server's own words behind it.
import type { ReactNode } from 'react';
import type { ErrorInfo } from '../state/notices';
import { ErrorText, ServerDetail } from './ErrorText';

export type Outcome =
  /** Shown as given: each test says what passing means for it. */
  | { kind: 'passed'; view: ReactNode }
  /** The call itself failed with a typed error. */
  | { kind: 'error'; error: ErrorInfo }
  /** The service answered "not working": the form's headline, the server's explanation behind it. */
  | { kind: 'failed'; headline: string; detail: string | null };

export function TestOutcome({ outcome, testId }: { outcome: Outcome | null; testId: string }) {
  if (outcome === null) return null;
  if (outcome.kind === 'passed') return <>{outcome.view}</>;
  return (
    <div className="inline-error" role="alert" data-testid={testId} data-ok="false">
      {outcome.kind === 'error' ? (
        <ErrorText error={outcome.error} />
      ) : (
        <>
          <strong>{outcome.headline}</strong> <ServerDetail text={outcome.detail} />
        </>
      )}
    </div>
  );
}

/** A typed error as an outcome, or none. */
export function errorOutcome(error: ErrorInfo | null): Outcome | null {
  return error === null ? null : { kind: 'error', error };
}
