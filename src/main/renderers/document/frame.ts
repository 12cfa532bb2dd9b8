// Everything around the body: the cover page, the table of contents, headers and footers, and the two
// Word sections they live in (front matter numbered i, ii...; the body numbered from 1 with the title
// in its header).
import {
  Footer,
  Header,
  type ISectionOptions,
  NumberFormat,
  PageNumber,
  Paragraph,
  type FileChild,
  TableOfContents,
  TextRun,
  PageBreak,
} from 'docx';
import { type DocumentSpec } from '../../../shared/specs/document';
import { contentsHeading } from '../../../shared/specs/document-captions';
import { createTextMeasurer } from '../typesetting/fonts';
import { type TextMeasurer } from '../typesetting/text-measurer';
import { balancedLines } from '../typesetting/balanced-lines';
import { type RenderContext } from './context';
import { documentMeasureStyle } from './measure-style';
import { COVER_TITLE_SIZE_PT, HEADER_SIZE_PT, STYLE } from './styles';

/**
 * The cover title's lines as a typesetter sets them: a title that needs two lines gets two of about the
 * same length, broken where it reads best ("面向个人知识工作的本地化 / 可控智能体关键技术研究"), never a
 * stub like "…关键技 / 术研究" that the word processor's own wrap leaves. One line, or three and more, wrap as
 * they fall.
 */
export function coverTitleLines(title: string, ctx: Pick<RenderContext, 'language' | 'geometry'>, measurer: TextMeasurer = createTextMeasurer()): string[] {
  const style = documentMeasureStyle('heading', ctx.language, COVER_TITLE_SIZE_PT);
  const width = ctx.geometry.textWidth / 20;
  const lines = measurer.wrap(title, style, width);
  return lines.length === 2 ? balancedLines(measurer, title, style, width, 2) : [title];
}

export function coverPage(spec: DocumentSpec, ctx: Pick<RenderContext, 'language' | 'geometry'>): Paragraph[] {
  const meta = [spec.authors.join(spec.language.startsWith('zh') ? '、' : ', '), spec.organization, spec.date].filter(
    (line): line is string => typeof line === 'string' && line.trim() !== '',
  );
  return [
    new Paragraph({ style: STYLE.coverTitle, children: coverTitleLines(spec.title, ctx).map((line, i) => new TextRun({ text: line, ...(i > 0 ? { break: 1 } : {}) })) }),
    new Paragraph({ style: STYLE.coverSubtitle, children: spec.subtitle ? [new TextRun(spec.subtitle)] : [] }),
    ...meta.map((line) => new Paragraph({ style: STYLE.coverMeta, children: [new TextRun(line)] })),
    new Paragraph({ children: [new PageBreak()] }),
  ];
}

/**
 * A real TOC field (`TOC \o "1-3" \h`), written dirty (and `updateFields` is on) so Word offers to
 * update it on open — unless every entry already has its page number from the LibreOffice pass. docx fills its result in from the headings: each entry links to its heading and
 * ends in a PAGEREF whose number comes from the document's page-number estimator (page-numbers.ts),
 * after a dot leader to a right tab stop at the section's text width.
 */
export function tableOfContents(ctx: RenderContext): FileChild[] {
  return [
    new Paragraph({ style: STYLE.tocHeading, children: [new TextRun(contentsHeading(ctx.isChinese))] }),
    new TableOfContents(ctx.isChinese ? '目录' : 'Table of Contents', { hyperlink: true, headingStyleRange: '1-3', beginDirty: !ctx.contentsFilled }),
  ];
}

/**
 * The running header's text: the title, cut with "…" where it would wrap, measured in the faces
 * LibreOffice sets it in (fontconfig + the font files; width tables where a face has no file).
 */
export function headerText(title: string, ctx: RenderContext, measurer: TextMeasurer = createTextMeasurer()): string {
  const style = documentMeasureStyle('body', ctx.language, HEADER_SIZE_PT);
  const width = ctx.geometry.textWidth / 20;
  return measurer.widthPt(title, style) <= width ? title : measurer.ellipsize(title, style, width);
}

function pageNumberFooter(ctx: RenderContext): Footer {
  const children = ctx.isChinese
    ? [new TextRun('第 '), new TextRun({ children: [PageNumber.CURRENT] }), new TextRun(' 页')]
    : [new TextRun({ children: [PageNumber.CURRENT] })];
  return new Footer({ children: [new Paragraph({ style: STYLE.footer, children })] });
}

/** `submission` leaves out the front matter (cover and contents): the submission system adds its own. */
export function documentSections(spec: DocumentSpec, ctx: RenderContext, body: FileChild[], mode: 'review' | 'submission' = 'review'): ISectionOptions[] {
  const { geometry } = ctx;
  const page = {
    size: { width: geometry.width, height: geometry.height },
    margin: { ...geometry.margin, header: 567, footer: 567 },
  };
  const front: ISectionOptions = {
    properties: { titlePage: true, page: { ...page, pageNumbers: { start: 1, formatType: NumberFormat.LOWER_ROMAN } } },
    footers: {
      first: new Footer({ children: [new Paragraph({ style: STYLE.footer, children: [] })] }),
      default: new Footer({ children: [new Paragraph({ style: STYLE.footer, children: [new TextRun({ children: [PageNumber.CURRENT] })] })] }),
    },
    headers: {
      first: new Header({ children: [new Paragraph({ children: [] })] }),
      default: new Header({ children: [new Paragraph({ children: [] })] }),
    },
    children: [...coverPage(spec, ctx), ...tableOfContents(ctx)],
  };
  const main: ISectionOptions = {
    properties: { page: { ...page, pageNumbers: { start: 1, formatType: NumberFormat.DECIMAL } } },
    headers: { default: new Header({ children: [new Paragraph({ style: STYLE.header, children: [new TextRun(headerText(spec.title, ctx))] })] }) },
    footers: { default: pageNumberFooter(ctx) },
    children: body,
  };
  return mode === 'submission' ? [main] : [front, main];
}
