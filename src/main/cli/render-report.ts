// What `folio render` prints of an engine's report. The engines' findings are English, precise and
// addressed to whoever fixes the source: an English terminal shows them as they are; any other shows
// each finding's kind and its sentence in the terminal's language, from the shared `report` strings
// the app's preview says them with (a document finding from its facts where it has them).
import { documentIssueText } from '../../shared/document-issue-text';
import type { QualityReport, ReportCheck } from '../../shared/specs/deck';
import type { DocumentIssue, DocumentPages } from '../renderers/document';
import type { Translate } from './cli-messages';

/** How the deck's report was checked: against the rendered slides, or estimated (in English, with why). */
export function deckCheckText(checked: ReportCheck, english: boolean, t: Translate): string {
  if (checked.mode === 'rendered') return t('render.verified');
  return english ? t('render.estimated', { reason: checked.reason ?? t('render.notRendered') }) : t('report.checkedEstimated');
}

/** One line per finding of a deck's report, under the spec slide it is about. */
export function deckIssueLines(report: QualityReport, english: boolean, t: Translate): string[] {
  return report.slides.flatMap((slide) => {
    const files = slide.output_slides.length > 0 ? t('render.fileSlides', { slides: slide.output_slides.join(t('report.listJoiner')) }) : '';
    return slide.issues.map((issue) => {
      const kind = english ? issue.kind : t(`report.deckIssueKind.${issue.kind}`, { defaultValue: issue.kind });
      const text = english ? issue.message : t(`report.deckIssueHelp.${issue.kind}`, { defaultValue: '' }) || t('report.unexplained');
      return t('render.deckIssue', { slide: slide.index + 1, files, kind, text });
    });
  });
}

/** One line per finding of a document's report, under its section and heading. */
export function documentIssueLines(issues: DocumentIssue[], english: boolean, t: Translate): string[] {
  return issues.map((issue) => {
    const where = [issue.section, issue.heading].filter(Boolean).join(' › ');
    const kind = english ? issue.kind : t(`report.docIssueKind.${issue.kind}`, { defaultValue: issue.kind });
    const text = english ? issue.message : documentIssueSentence(issue, t);
    return t('render.docIssue', { where: where ? t('render.docWhere', { where }) : '', kind, text });
  });
}

function documentIssueSentence(issue: DocumentIssue, t: Translate): string {
  return (
    t(`report.docIssueMessage.${issue.kind}`, { defaultValue: '' }) ||
    documentIssueText(issue, t) ||
    t(`report.docIssueHelp.${issue.kind}`, { defaultValue: '' }) ||
    t('report.unexplained')
  );
}

/** The page count as a person reads it: laid out (and whether the contents have every page number), or estimated. */
export function documentPagesText(pages: DocumentPages | undefined, estimate: number, t: Translate): string {
  if (pages?.mode === 'rendered') {
    const missing = pages.contents.filter((e) => e.page === null).length;
    const contents = missing === 0 ? t('report.pages.contentsComplete') : t('report.pages.headingsMissing', { count: missing });
    return t('render.pagesRendered', { pages: t('report.pages.rendered', { count: pages.total, body: pages.body }), contents });
  }
  return t('render.pagesEstimated', { pages: t('report.pages.estimated', { count: pages?.total ?? estimate }), note: t('report.pages.numbersAfterWord') });
}
