// The part that Settings sections for an outside service (web search, embeddings) have in common:
// the form with its Save and Test buttons and the saved hint, the error, and the test's outcome (a
// failure headed in the person's language, the server's words behind it). Each section brings its
// fields and says what a passing test shows.
import type { InputHTMLAttributes, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TestState, useSaveAndTest } from '../../state/use-save-and-test';
import { errorOutcome, TestOutcome } from '../TestOutcome';

/** What every service's test answers: whether it worked and, when not, the server's explanation. */
interface ServiceReport {
  ok: boolean;
  message: string | null;
}

type Section = 'search' | 'embedding';

interface ServiceFormProps<R extends ServiceReport> {
  /** The section whose strings and test ids the form uses (`<section>.test`, `<section>-save`, …). */
  section: Section;
  flow: ReturnType<typeof useSaveAndTest<R>>;
  canSave: boolean;
  /** Whether the choice in the form can be tested (a service is chosen or enabled). */
  testable: boolean;
  /** What a passing test shows. */
  passed: (report: R) => ReactNode;
  children: ReactNode;
}

export function ServiceForm<R extends ServiceReport>({ section, flow, canSave, testable, passed, children }: ServiceFormProps<R>) {
  const { t } = useTranslation();
  const { saved, error, test, save, runTest } = flow;
  const running = test?.status === 'running';
  return (
    <>
      <form
        className="search-form"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        {children}
        <div className="form-row search-actions">
          <button type="submit" className="btn btn-primary" disabled={!canSave} data-testid={`${section}-save`}>
            {t('common.save')}
          </button>
          {testable && (
            <button type="button" className="btn" disabled={!canSave || running} onClick={() => void runTest()} data-testid={`${section}-test`}>
              {running && <span className="spinner" />}
              {running ? t(`${section}.testing`) : t(`${section}.test`)}
            </button>
          )}
          {saved && <span className="saved-hint">{t(`${section}.saved`)}</span>}
        </div>
      </form>
      <TestOutcome outcome={errorOutcome(error)} testId={`${section}-error`} />
      <ServiceTestOutcome section={section} test={test} passed={passed} />
    </>
  );
}

/** A finished test: what passing shows, or the failure headed in the person's language. */
export function ServiceTestOutcome<R extends ServiceReport>({ section, test, passed }: { section: Section; test: TestState<R> | null; passed: (report: R) => ReactNode }) {
  const { t } = useTranslation();
  if (test?.status !== 'done') return null;
  const { report } = test;
  return (
    <TestOutcome
      outcome={report.ok ? { kind: 'passed', view: passed(report) } : { kind: 'failed', headline: t(`${section}.testFailed`), detail: report.message }}
      testId={`${section}-test-error`}
    />
  );
}

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'> {
  label: string;
  value: string;
  /** The new text; the section also marks its form edited here. */
  onValue: (value: string) => void;
  testId: string;
}

/** One labelled text box of a service's form. */
export function TextField({ label, value, onValue, testId, ...input }: TextFieldProps) {
  return (
    <label className="form-row">
      <span className="form-label">{label}</span>
      <input className="input" spellCheck={false} {...input} value={value} onChange={(e) => onValue(e.target.value)} data-testid={testId} />
    </label>
  );
}
