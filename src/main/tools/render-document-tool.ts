// render_document: a proposal/report folder (document.json + sections/*.md) → a .docx in artifacts/,
// with the engine's report as text the model can act on.
import { statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { z } from 'zod';
import { FolioError } from '../../shared/errors';
import { writeArtifactAtomic } from '../artifacts/write-artifact';
import { writePreviewSidecar } from '../renderers/artifact-preview';
import type { DocumentReport, LoadedDocument } from '../renderers/document';
import { formatLocation } from '../renderers/document/report';
import { pagesSentence } from '../renderers/document/pages-sentence';
import { sofficePath } from '../renderers/soffice';
import { ARTIFACTS_DIR } from './artifacts';
import { libraryEntries } from './library-references';
import { toRelative } from '../workspace/task-paths';
import { ALL_AREAS, resolveToolPath, type Tool, type ToolContext, ToolError, ToolFileNotFoundError, type ToolTraits } from './types';

const parameters = z.object({
  path: z
    .string()
    .describe('The document folder relative to the task folder (it holds document.json and sections/*.md), e.g. "proposal".'),
});

const traits: ToolTraits = { kind: 'edit', runsCode: false, network: false, paths: { read: ALL_AREAS, write: ['artifact'] }, writesArtifacts: true, endsTurn: false };

export interface RenderDocumentToolOptions {
  /** Folders LibreOffice must not see while it lays the document's pages out (Folio's data folder). */
  hiddenPaths?: readonly string[];
}

export function createRenderDocumentTool(options: RenderDocumentToolOptions = {}): Tool<typeof parameters> {
  return {
    name: 'render_document',
    description:
      'Render a proposal or report (.docx) into artifacts/ from a document folder: document.json ' +
      '{title, subtitle?, authors?, organization?, date?, template: nsfc_general|nsfc_youth|nsfc|report|generic, language: "zh-CN"|"en"..., ' +
      'sections?: ["01_intro.md", ...], submission?: true} and sections/*.md (Markdown: headings, lists, tables with a "表：caption {#tbl:id}" ' +
      'paragraph before them, footnotes, images "![caption](figures/x.png){#fig:id}" relative to the document folder, cross-references [@tbl:id], ' +
      'citations [@key] of a .bib or CSL-JSON file in the folder or [@lib:…] keys of search_library hits, numbered in citation order with the list generated under 参考文献/References ' +
      '(GB/T 7714-2015 for Chinese, Vancouver otherwise; citation_style to choose)). ' +
      'With submission: true it also writes "<title>（提交版）.docx": the body alone, no cover or contents. ' +
      'Never overwrites: a second render becomes "<title>-v2.docx". When LibreOffice is installed the pages are laid out: the ' +
      'contents get page numbers and the page count is exact (else estimated). Returns the file path, the page count, statistics and the ' +
      'issues found, each with its section file, heading, paragraph and line (sections the template expects but the text lacks, sections ' +
      'over or under their recommended length, characters no font can draw, missing images, undefined footnotes, empty list items, ' +
      'low-resolution images, unknown cross-references, unknown citation keys, uncited or incomplete bibliography entries, unsupported Markdown): fix them and render again.',
    parameters,
    traits,
    assess(args) {
      return { risk: 'standard', detail: `Render the document in ${args.path} into ${ARTIFACTS_DIR}/` };
    },
    async execute(args, ctx) {
      if (ctx.signal.aborted) throw new ToolError('Cancelled before rendering.');
      const { folder, folderRel } = documentFolder(ctx, args.path);
      // The renderer (docx, remark) loads at the first render, not at start-up.
      const { buildDocx, defaultFileName, loadDocumentFolder, paginateDocument, submissionFileName } = await import('../renderers/document');
      ctx.progress?.({ step: 'render_document' }, 0, null);

      const loaded = load(() => loadDocumentFolder(folder), folder, folderRel);
      const libraryItems = await libraryEntries(ctx.library, loaded.sections.map((section) => section.markdown));
      if (libraryItems.length > 0) loaded.libraryEntries = libraryItems;
      // Progress only where there is something to wait for: no LibreOffice, no "laying out".
      if (sofficePath() !== null) ctx.progress?.({ step: 'layout_document' }, 0, null);
      const built = await paginateDocument(loaded, { signal: ctx.signal, ...(options.hiddenPaths ? { hiddenPaths: options.hiddenPaths } : {}) });
      // Built from the same load as the sidecar, so the preview always matches the file.
      const out = resolveToolPath(ctx, traits, ARTIFACTS_DIR, 'write');
      const fileName = defaultFileName(loaded.spec.title);
      const written = writeArtifactAtomic(out.abs, fileName, built.bytes);
      writePreviewSidecar(written, { kind: 'document', spec: loaded.spec, sections: loaded.sections, report: built.report });
      const touched = [toRelative(out.root, written)];
      if (loaded.spec.submission) {
        // The same sections without cover and contents; the report is the review copy's, which covers both.
        const submission = await buildDocx(loaded, { mode: 'submission' });
        const submissionWritten = writeArtifactAtomic(out.abs, submissionFileName(fileName, loaded.spec.language), submission.bytes);
        writePreviewSidecar(submissionWritten, { kind: 'document', spec: loaded.spec, sections: loaded.sections, report: built.report });
        touched.push(toRelative(out.root, submissionWritten));
      }
      ctx.progress?.({ step: 'render_document' }, 1, 1);

      const [rel, submissionRel] = touched;
      const head =
        `Rendered ${rel} from ${folderRel}: ${pagesSentence(built.report.pages, built.pageEstimate)}` +
        (submissionRel ? `\nSubmission copy (body only, no cover or contents): ${submissionRel}.` : '');
      return { content: `${head}\n${formatDocumentReport(built.report)}`, touched };
    },
  };
}

export const renderDocumentTool = createRenderDocumentTool();

/** The confined folder; a path naming document.json itself is taken to mean its folder. */
function documentFolder(ctx: ToolContext, relPath: string): { folder: string; folderRel: string } {
  const { abs, rel } = resolveToolPath(ctx, traits, relPath, 'read');
  let stat;
  try {
    stat = statSync(abs);
  } catch {
    throw new ToolFileNotFoundError(relPath, `Document folder not found: ${relPath}`);
  }
  if (stat.isFile() && basename(abs) === 'document.json') return { folder: dirname(abs), folderRel: rel.replace(/\/?document\.json$/u, '') || '.' };
  if (!stat.isDirectory()) throw new ToolError(`${relPath} is a file; give the document folder that holds document.json and sections/.`);
  return { folder: abs, folderRel: rel };
}

function load(read: () => LoadedDocument, folder: string, folderRel: string): LoadedDocument {
  try {
    return read();
  } catch (err) {
    // The engine names absolute paths; the model only knows the task-relative ones.
    if (err instanceof FolioError) throw new ToolError(err.message.split(folder).join(folderRel));
    throw err;
  }
}

export function formatDocumentReport(report: DocumentReport): string {
  const s = report.stats;
  const stats =
    `Stats: ${s.sections} section file(s), ${s.words} words, ${s.cjk_chars} CJK characters, ` +
    `${s.tables} table(s), ${s.images} image(s), ${s.footnotes} footnote(s).`;
  if (report.issues.length === 0) return `${stats}\nNo issues.`;
  const lines = report.issues.map((issue) => {
    const place = [issue.section, issue.heading].filter((part) => part !== undefined && part !== '').join(' › ');
    const where = [place, issue.location ? formatLocation(issue.location) : ''].filter((part) => part !== '').join(' ');
    return `- ${where ? `[${where}] ` : ''}${issue.kind}: ${issue.message}`;
  });
  return [stats, `Issues (${report.issues.length}):`, ...lines].join('\n');
}
