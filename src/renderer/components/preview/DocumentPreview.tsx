// A rendered document: cover, sections as markdown with the template's heading numbers, table and figure
// captions (表 N above, 图 N below), cross-references and list styles as the .docx has them, and the
// engine's report. Raw HTML is dropped, as in the chat.
import { createElement, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { documentTemplates, type DocumentSpec } from '../../../shared/specs/document';
import { remarkTrimCjkAutolinks } from '../../../shared/specs/document-autolinks';
import { contentsHeading } from '../../../shared/specs/document-captions';
import { referencesHeadingTitle } from '../../../shared/specs/document-citations';
import { computeCaptions, hasReferencesHeading, listStyleFor, remarkDocumentPreview } from '../../lib/document-captions';
import { documentCitations, documentIssues, documentPages, type DocumentIssue } from '../../lib/document-report';
import { computeHeadingLabels, headingKey, labelJoiner } from '../../lib/heading-labels';
import { documentIssueText } from '../../../shared/document-issue-text';
import { FindingText } from './FindingText';
import { plainT } from '../../i18n/plain';

const headingTags = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'] as const;

interface DocumentPreviewProps {
  spec: DocumentSpec;
  sections: { file: string; markdown: string }[];
  report: unknown;
}

export function DocumentPreview({ spec, sections, report }: DocumentPreviewProps) {
  const { t, i18n } = useTranslation();
  const template = documentTemplates[spec.template];
  const numbering = template.headingNumbering;
  const labels = useMemo(() => computeHeadingLabels(sections.map((s) => s.markdown), numbering), [sections, numbering]);
  const issues = useMemo(() => documentIssues(report), [report]);
  const pages = useMemo(() => documentPages(report), [report]);
  const chinese = spec.language.toLowerCase().startsWith('zh');
  // The engine's reason for estimated pages is English: a screen in another language says what it means instead.
  const english = i18n.language.startsWith('en');
  const captions = useMemo(() => computeCaptions(sections.map((s) => s.markdown), chinese), [sections, chinese]);
  const citations = useMemo(() => documentCitations(report), [report]);
  // The generated list goes under the first references heading; without one, under a heading of its own at the end.
  const listSection = useMemo(() => (citations ? sections.findIndex((s) => hasReferencesHeading(s.markdown)) : -1), [citations, sections]);
  const pluginsFor = useMemo(
    () =>
      sections.map((_, i) => [
        remarkGfm,
        remarkTrimCjkAutolinks,
        remarkDocumentPreview(captions.references, chinese, citations ? { view: citations, listHere: i === listSection } : undefined),
      ]),
    [sections, captions, chinese, citations, listSection],
  );
  const trailingList = citations && listSection < 0 && citations.references.length > 0 ? citations : null;
  const issueHelp = (issue: DocumentIssue): string => t(`report.docIssueHelp.${issue.kind}`, { defaultValue: '' });

  const componentsFor = useMemo(
    () =>
      sections.map((_, section): Components => {
        const keyOf = (offset: number | undefined): string | undefined => (offset === undefined ? undefined : headingKey(section, offset));
        const components: Components = {
          a: ({ href, children }) => (
            <a href={href} target="_blank" rel="noreferrer noopener">
              {children}
            </a>
          ),
          // Image paths are relative to the document folder, which the preview doesn't read.
          img: ({ node, alt, src }) => {
            const key = keyOf(node?.position?.start.offset);
            const caption = key === undefined ? undefined : captions.figures.get(key);
            return (
              <span className="doc-figure">
                <span className="doc-image-placeholder" data-testid="doc-image">
                  {t('preview.docImage', { name: alt || (typeof src === 'string' ? src : '') })}
                </span>
                {caption && (
                  <span className="doc-caption" data-testid="doc-figure-caption">
                    {caption}
                  </span>
                )}
              </span>
            );
          },
          // A table's caption paragraph is shown above the table, as 表 N, not where it stands.
          p: ({ node, children }) => {
            const key = keyOf(node?.position?.start.offset);
            return key !== undefined && captions.hidden.has(key) ? null : <p>{children}</p>;
          },
          table: ({ node, children }) => {
            const key = keyOf(node?.position?.start.offset);
            const caption = key === undefined ? undefined : captions.tables.get(key);
            return (
              <>
                {caption && (
                  <div className="doc-caption doc-table-caption" data-testid="doc-table-caption">
                    {caption}
                  </div>
                )}
                <table>{children}</table>
              </>
            );
          },
          ol: ({ node, children, start }) => {
            const depth = Number(node?.properties?.dataDepth ?? 0);
            return (
              <ol start={start} style={{ listStyleType: listStyleFor(numbering, Number.isFinite(depth) ? depth : 0) }}>
                {children}
              </ol>
            );
          },
        };
        headingTags.forEach((tag, depthIndex) => {
          components[tag] = ({ node, children }) => {
            const offset = node?.position?.start.offset;
            const label = offset === undefined ? undefined : labels.get(headingKey(section, offset));
            return createElement(
              tag,
              { className: 'doc-heading' },
              label ? (
                <span className="doc-heading-label" data-testid="doc-heading-label">
                  {label}
                  {labelJoiner(numbering, depthIndex + 1)}
                </span>
              ) : null,
              children,
            );
          };
        });
        return components;
      }),
    [sections, labels, numbering, captions, t],
  );

  return (
    <div className={`document-preview template-${spec.template}${chinese ? ' doc-cjk' : ''}`} lang={spec.language} data-testid="document-preview">
      <div className="preview-meta">
        <span className="badge">{t(`preview.template.${spec.template}`)}</span>
        <span className="badge" data-testid="doc-language">
          {t(`settings.languages.${spec.language}`, { defaultValue: spec.language })}
        </span>
        <span className="muted">{t('preview.sectionCount', { count: sections.length })}</span>
        {pages && (
          <span className="muted" data-testid="doc-page-count" title={pages.mode === 'estimated' && english ? pages.reason : undefined}>
            {pages.mode === 'rendered'
              ? t('report.pages.rendered', { count: pages.total, body: pages.body })
              : t('report.pages.estimated', { count: pages.total })}
          </span>
        )}
      </div>
      <div className="doc-page">
        <header className="doc-cover" data-testid="doc-cover">
          <div className="doc-title">{spec.title}</div>
          {spec.subtitle && <div className="doc-subtitle">{spec.subtitle}</div>}
          {spec.authors.length > 0 && <div className="doc-authors">{spec.authors.join(chinese ? '、' : ', ')}</div>}
          {spec.organization && <div className="doc-org">{spec.organization}</div>}
          {spec.date && <div className="doc-date">{spec.date}</div>}
        </header>
        {pages?.mode === 'rendered' && pages.contents.length > 0 && (
          <nav className="doc-contents" data-testid="doc-contents" aria-label={plainT('report.pages.contents')}>
            <div className="doc-contents-title">{contentsHeading(chinese)}</div>
            <ol>
              {pages.contents.map((line, i) => (
                <li key={i} className={`doc-contents-line level-${Math.min(line.level, 3)}`}>
                  <span className="doc-contents-text">{line.title}</span>
                  <span className="doc-contents-page">{line.page ?? ''}</span>
                </li>
              ))}
            </ol>
          </nav>
        )}
        {pages?.mode === 'estimated' && <p className="muted doc-contents-note">{t('report.pages.numbersAfterWord')}</p>}
        {sections.map((section, index) => (
          <section key={section.file} className="doc-section markdown" data-file={section.file}>
            <ReactMarkdown remarkPlugins={pluginsFor[index]} skipHtml components={componentsFor[index]}>
              {section.markdown}
            </ReactMarkdown>
          </section>
        ))}
        {trailingList && (
          <section className="doc-section markdown">
            <h1 className="doc-heading">{referencesHeadingTitle(chinese)}</h1>
            <ul className="doc-references" data-testid="doc-references">
              {trailingList.references.map((r) => (
                <li key={r.key}>
                  [{r.number}] {r.text}
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>
      {issues.length > 0 && (
        <section className="preview-issues" data-testid="document-issues">
          <h4>{t('preview.documentReport')}</h4>
          <ul>
            {issues.map((issue, i) => (
              <li key={i}>
                <span className="issue-kind">{t(`report.docIssueKind.${issue.kind}`, { defaultValue: issue.kind })}</span> {issue.section && <code>{issue.section}</code>}{' '}
                {issue.heading && <span className="doc-issue-heading">{issue.heading}</span>}{' '}
                {issue.location && (
                  <span className="muted issue-location" data-testid="doc-issue-location">
                    {issue.location.line === undefined
                      ? t('report.docIssueParagraph', { paragraph: issue.location.paragraph })
                      : t('report.docIssueParagraphLine', { paragraph: issue.location.paragraph, line: issue.location.line })}{' '}
                    “{issue.location.excerpt}”{' '}
                  </span>
                )}
                {i18n.exists(`report.docIssueMessage.${issue.kind}`) ? (
                  t(`report.docIssueMessage.${issue.kind}`)
                ) : (
                  <FindingText help={documentIssueText(issue, t) ?? issueHelp(issue)} message={issue.message} />
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
