// Folio's document engine: a proposal/report folder (document.json + sections/*.md) → a .docx.
import { Document, Packer } from 'docx';
import { type DocumentTemplateName, documentTemplates, matchesOutlineEntry, missingOutlineEntries, type OutlineEntry, type OutlineHeadingRef, templateOutline } from '../../../shared/specs/document';
import { collectCaptions, referenceKind } from '../../../shared/specs/document-captions';
import { citationLooks, citationOrder, defaultCitationStyle, referencesHeadingTitle } from '../../../shared/specs/document-citations';
import { type Bibliography, formatReferences, bibtexName, loadBibliography, missingCslFields } from './bibliography';
import { ValidationError } from '../../../shared/errors';
import { writeArtifactAtomic } from '../../artifacts/write-artifact';
import { RenderContext, type TocEntry } from './context';
import { SectionConverter } from './convert';
import { documentSections } from './frame';
import { type PageGeometry, pageGeometry } from './geometry';
import { type LoadedDocument, loadDocumentFolder } from './load-folder';
import { parseMarkdown } from './markdown';
import { headingPageNumbers, type HeadingPages } from './page-numbers';
import { paginate, type PaginatedDocx, type PaginateOptions } from './paginate';
import { numberingConfig } from './numbering';
import { estimatePages } from './page-estimate';
import { type DocumentReport } from './report';
import { documentStyles } from './styles';
import { withAutoSpace } from './typography';
import { withTightContentsNumbers } from './contents-numbers';
import { patchParts } from './patch-parts';
import { withCompressedMarks } from './compress-marks';
import { fontSet } from './fonts';

export { loadDocumentFolder, parseSpec, type LoadedDocument, type LoadedSection } from './load-folder';
export type { ContentsEntry, DocumentIssue, DocumentIssueKind, DocumentPages, DocumentReport, DocumentStats, IssueLocation } from './report';
export { formatLocation } from './report';
export { pagesSentence } from './pages-sentence';
export { PAGINATION_OFF_REASON, SOFFICE_MISSING_REASON, type PaginateOptions, type PaginatedDocx } from './paginate';

export type RenderDocumentOptions = {
  outDir: string;
  fileName?: string;
  /** Lay the pages out with LibreOffice when it is installed (default true); see paginate.ts. */
  paginate?: boolean;
} & Omit<PaginateOptions, 'enabled'>;
export type RenderDocumentResult = {
  path: string;
  /** The body-only copy, written when document.json asks for `submission`. */
  submissionPath?: string;
  pageEstimate: number;
  report: DocumentReport;
};

/**
 * `review`: cover, contents and body (what a person reads and revises). `submission`: the body alone (正文),
 * for submission systems such as NSFC's that add their own cover and contents.
 */
export type DocxMode = 'review' | 'submission';

export async function renderDocument(folder: string, opts: RenderDocumentOptions): Promise<RenderDocumentResult> {
  const loaded = loadDocumentFolder(folder);
  const fileName = opts.fileName ?? defaultFileName(loaded.spec.title);
  if (!fileName.toLowerCase().endsWith('.docx')) throw new ValidationError(`fileName: must end with .docx (got "${fileName}")`);
  const { bytes, pageEstimate, report, compressions } = await paginateDocument(loaded, { ...opts, enabled: opts.paginate ?? true });
  const path = writeArtifactAtomic(opts.outDir, fileName, bytes);
  if (!loaded.spec.submission) return { path, pageEstimate, report };
  const submission = await buildDocx(loaded, { mode: 'submission' });
  // The body's lines break as in the review copy (same page width): the same marks are set half width.
  const submissionBytes = await withCompressedMarks(submission.bytes, compressions, fontSet('body', loaded.spec.language).eastAsia);
  const submissionPath = writeArtifactAtomic(opts.outDir, submissionFileName(fileName, loaded.spec.language), submissionBytes);
  return { path, submissionPath, pageEstimate, report };
}

/**
 * Builds the .docx and, when LibreOffice is installed (and `enabled` is not false), lays its pages out
 * to write the contents' page numbers and count the pages (paginate.ts). Writes nothing.
 */
export function paginateDocument(loaded: LoadedDocument, opts: PaginateOptions = {}): Promise<PaginatedDocx> {
  return paginate(loaded, (headingPages) => buildDocx(loaded, headingPages ? { headingPages } : {}), opts);
}

export type BuildOptions = {
  /** Body page of each heading (by bookmark), written into the contents; without it the numbers are left for Word. */
  headingPages?: HeadingPages;
  mode?: DocxMode;
};

export type BuiltDocx = {
  bytes: Uint8Array;
  pageEstimate: number;
  report: DocumentReport;
  /** The contents as written (numbered titles, levels, the headings' bookmarks), in order. */
  toc: readonly TocEntry[];
  geometry: PageGeometry;
};

/** Renders a loaded folder to .docx bytes without writing anything, and without laying the pages out. */
export async function buildDocx(loaded: LoadedDocument, opts: BuildOptions = {}): Promise<BuiltDocx> {
  const mode = opts.mode ?? 'review';
  const { spec } = loaded;
  const template = documentTemplates[spec.template];
  const geometry = pageGeometry(template);
  const roots = loaded.sections.map((section) => parseMarkdown(section.markdown));
  // Numbers and ids of tables and figures first, so a reference may come before what it names.
  const captions = collectCaptions(roots);
  const ctx = new RenderContext(loaded.folder, template, spec.language, geometry, captions);
  const cited = citationOrder(roots);
  const bibliography = await loadBibliography(loaded.folder, spec, loaded.libraryEntries);
  const style = spec.citation_style ?? defaultCitationStyle(spec.language);
  if (cited.length > 0 || bibliography.entries.size > 0) {
    const references = await formatReferences(bibliography, cited, style);
    ctx.citations = {
      look: citationLooks[style],
      numbers: new Map(references.map((r) => [r.key, r.number])),
      references,
      hasBibliography: bibliography.files.length > 0,
      written: false,
    };
  }

  const body = loaded.sections.flatMap((section, i) => {
    ctx.section = section.file;
    ctx.stats.sections += 1;
    const root = roots[i];
    return root ? new SectionConverter(ctx).convert(root) : [];
  });
  ctx.section = undefined;
  if (ctx.citations && !ctx.citations.written && ctx.citations.references.length > 0) {
    // No references heading in the text: the list gets one at the end.
    const title = referencesHeadingTitle(ctx.isChinese);
    body.push(...new SectionConverter(ctx).convert({ type: 'root', children: [{ type: 'heading', depth: 1, children: [{ type: 'text', value: title }] }] }));
  }
  reportBibliography(ctx, bibliography, cited);
  ctx.contentsFilled = opts.headingPages !== undefined && ctx.toc.every((entry) => opts.headingPages?.has(entry.href));
  for (const id of captions.duplicateIds) {
    ctx.report('duplicate_id', `{#${id}} names more than one ${referenceKind(id) === 'table' ? 'table' : 'figure'} (or a ${referenceKind(id) === 'table' ? 'figure' : 'table'}); cross-references go to the first`, undefined, { params: { id } });
  }
  for (const entry of missingOutlineEntries(spec.template, ctx.headings)) ctx.report('missing_section', missingSectionMessage(template.name, entry, ctx.headings), undefined, { expected: entry.title });

  const doc = new Document({
    title: spec.title,
    ...(spec.authors.length > 0 ? { creator: spec.authors.join(', ') } : {}),
    ...(spec.subtitle ? { subject: spec.subtitle } : {}),
    // The review copy's contents field asks Word to update it; the submission copy has no contents, and its
    // caption and reference fields carry their results already.
    // Once the LibreOffice pass has filled every contents page number, Word has nothing to update: no prompt.
    ...(mode === 'review' && !ctx.contentsFilled ? { features: { updateFields: true } } : {}),
    pageNumbers: headingPageNumbers(opts.headingPages),
    styles: documentStyles(template, spec.language),
    numbering: numberingConfig(template.headingNumbering),
    footnotes: ctx.footnotes,
    sections: documentSections(spec, ctx, body, mode),
  });
  const bytes = await patchParts(new Uint8Array(await Packer.toBuffer(doc)), { 'word/styles.xml': withAutoSpace, 'word/document.xml': withTightContentsNumbers });
  const pageEstimate = estimatePages(ctx.measures, ctx.toc.length, geometry, template.bodySizePt);
  const citationsReport = ctx.citations
    ? { style, superscript: ctx.citations.look.superscript, numbers: Object.fromEntries(ctx.citations.numbers), references: ctx.citations.references }
    : undefined;
  return { bytes, pageEstimate, report: { issues: ctx.issues, stats: ctx.stats, ...(citationsReport ? { citations: citationsReport } : {}) }, toc: ctx.toc, geometry };
}

/** What the template expects, at which level and under which part, and a heading that matches it at another level if there is one. */
function missingSectionMessage(template: DocumentTemplateName, entry: OutlineEntry, headings: readonly OutlineHeadingRef[]): string {
  const also = entry.aliases.length > 0 ? ` (or ${entry.aliases.map((a) => `"${a}"`).join(', ')})` : '';
  const { depth } = entry;
  if (depth === undefined) return `the ${template} template expects a section "${entry.title}"${also}; no heading matches`;
  const outline = templateOutline(template);
  const part = outline.slice(0, outline.indexOf(entry)).findLast((e) => e.depth !== undefined && e.depth < depth);
  const where = `as a ${'#'.repeat(depth)} heading${part ? ` under "${'#'.repeat(part.depth ?? 1)} ${part.title}"` : ''}`;
  const elsewhere = headings.find((h) => matchesOutlineEntry(entry, h.text));
  const found = elsewhere ? `; "${'#'.repeat(elsewhere.depth)} ${elsewhere.text}" matches it at another level` : '; no heading matches';
  return `the ${template} template expects a section "${entry.title}"${also} ${where}${found}`;
}

/** Entries never cited, and cited entries missing what the style needs. */
function reportBibliography(ctx: RenderContext, bibliography: Bibliography, cited: readonly string[]): void {
  const citedSet = new Set(cited);
  const uncited = [...bibliography.entries.keys()].filter((key) => !citedSet.has(key));
  if (uncited.length > 0) {
    ctx.report('uncited_reference', `${uncited.length} bibliography entr${uncited.length === 1 ? 'y is' : 'ies are'} never cited and left out of the list: ${uncited.join(', ')} (cite them as [@key] or remove them)`, undefined, {
      params: { count: uncited.length, keys: uncited.join(', ') },
    });
  }
  for (const key of cited) {
    const entry = bibliography.entries.get(key);
    if (!entry) continue;
    const missing = missingCslFields(entry);
    if (missing.length > 0) {
      ctx.report('incomplete_reference', `bibliography entry ${key} (${entry.type}) lacks ${missing.map(bibtexName).join(', ')}, which the reference list needs`, undefined, {
        params: { key, fields: missing.join(',') },
      });
    }
  }
}

/** `申请书.docx` → `申请书（提交版）.docx`; `Plan.docx` → `Plan (submission).docx`. */
export function submissionFileName(fileName: string, language: string): string {
  const base = fileName.replace(/\.docx$/i, '');
  return `${base}${language.toLowerCase().startsWith('zh') ? '（提交版）' : ' (submission)'}.docx`;
}

/** A file name from the title: characters Windows and macOS refuse are dropped, the rest (CJK too) kept. */
export function defaultFileName(title: string): string {
  const base = title
    .replace(/[<>:"/\\|?*\u0000-\u001f]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80);
  return `${base || 'document'}.docx`;
}
