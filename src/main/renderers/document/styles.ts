// The document's styles. Every style that names a font names all four rFonts slots (see fonts.ts), and
// the document defaults do too, so a run with CJK text resolves to a CJK face through any style chain.
import { AlignmentType, BorderStyle, type IStylesOptions, LineRuleType, UnderlineType } from 'docx';
import { type DocumentTemplate } from '../../../shared/specs/document';
import { fontSet, isCjkLanguage, runLanguage } from './fonts';
import { HEADING_NUMBERING, NUMBERED_HEADING_LEVELS } from './numbering';

export const STYLE = {
  body: 'BodyText',
  listItem: 'ListItem',
  tableText: 'TableText',
  quote: 'Quote',
  code: 'CodeBlock',
  figure: 'Figure',
  caption: 'Caption',
  tableCaption: 'TableCaption',
  reference: 'ReferenceItem',
  coverTitle: 'CoverTitle',
  coverSubtitle: 'CoverSubtitle',
  coverMeta: 'CoverMeta',
  tocHeading: 'TOCHeading',
  header: 'Header',
  footer: 'Footer',
  placeholder: 'Placeholder',
  inlineCode: 'InlineCode',
} as const;

const halfPoints = (pt: number): number => Math.round(pt * 2);

/** The running header's size: the title in it is cut to one line at this size (frame.ts). */
export const HEADER_SIZE_PT = 9;
/** The cover title's size: frame.ts measures the title at it to balance its lines. */
export const COVER_TITLE_SIZE_PT = 20;

export function documentStyles(template: DocumentTemplate, language: string): IStylesOptions {
  const cjk = isCjkLanguage(language);
  const body = fontSet('body', language);
  const heading = fontSet('heading', language);
  const mono = fontSet('mono', language);
  const size = template.bodySizePt;
  const line = Math.round(240 * template.lineSpacing);
  const headingSizes = [size + 4, size + 2, size, size, size];

  // 黑体 has no bold face: Word and LibreOffice would smear it (synthetic bold). The weight comes from the face;
  // Latin words in a heading are made bold run by run (convert.ts), where Arial has a real bold.
  const headingStyle = (level: number) => ({
    run: { font: heading, size: halfPoints(headingSizes[level] ?? size), bold: false, boldComplexScript: false, color: '000000' },
    paragraph: {
      keepNext: true,
      keepLines: true,
      spacing: { before: level === 0 ? 360 : 240, after: 120, line, lineRule: LineRuleType.AUTO },
      outlineLevel: level,
      ...(level < NUMBERED_HEADING_LEVELS ? { numbering: { reference: HEADING_NUMBERING, level } } : {}),
    },
  });

  return {
    default: {
      document: {
        run: { font: body, size: halfPoints(size), language: runLanguage(language) },
        paragraph: { spacing: { line, lineRule: LineRuleType.AUTO } },
      },
      heading1: headingStyle(0),
      heading2: headingStyle(1),
      heading3: headingStyle(2),
      heading4: headingStyle(3),
      heading5: headingStyle(4),
      // Figure captions, below the picture (the picture's paragraph keeps with them).
      caption: {
        run: { font: body, size: halfPoints(size - 1.5), italics: false, bold: false, color: '333333' },
        paragraph: { alignment: AlignmentType.CENTER, keepLines: true, spacing: { before: 60, after: 240 } },
      },
      hyperlink: { run: { color: '1F4E79', underline: {} } },
      footnoteText: { run: { font: body, size: halfPoints(size - 3) }, paragraph: { spacing: { line: 240, lineRule: LineRuleType.AUTO } } },
    },
    paragraphStyles: [
      {
        id: STYLE.body,
        name: 'Body Text',
        basedOn: 'Normal',
        quickFormat: true,
        run: { font: body },
        paragraph: {
          // Chinese prose indents each paragraph by two characters and justifies; English uses space between paragraphs.
          ...(cjk
            ? { alignment: AlignmentType.JUSTIFIED, indent: { firstLine: halfPoints(size) * 20 }, spacing: { after: 0 } }
            : { spacing: { after: 160 } }),
        },
      },
      { id: STYLE.listItem, name: 'List Item', basedOn: 'Normal', run: { font: body }, paragraph: { spacing: { after: 40 } } },
      {
        // Table captions stand above the table and keep with it.
        id: STYLE.tableCaption,
        name: 'Table Caption',
        basedOn: 'Caption',
        next: STYLE.body,
        paragraph: { alignment: AlignmentType.CENTER, keepNext: true, keepLines: true, spacing: { before: 240, after: 60 } },
      },
      {
        id: STYLE.tableText,
        name: 'Table Text',
        basedOn: 'Normal',
        run: { font: body, size: halfPoints(size - 1.5) },
        paragraph: { spacing: { before: 40, after: 40, line: 276, lineRule: LineRuleType.AUTO } },
      },
      {
        id: STYLE.quote,
        name: 'Quote',
        basedOn: 'Normal',
        run: { font: body, color: '404040' },
        paragraph: {
          indent: { left: 567, right: 567 },
          spacing: { before: 120, after: 120 },
          border: { left: { style: BorderStyle.SINGLE, size: 18, color: 'A6A6A6', space: 8 } },
        },
      },
      {
        id: STYLE.code,
        name: 'Code Block',
        basedOn: 'Normal',
        run: { font: mono, size: halfPoints(size - 2) },
        paragraph: { spacing: { line: 240, lineRule: LineRuleType.AUTO }, shading: { type: 'clear', fill: 'F2F2F2', color: 'auto' } },
      },
      { id: STYLE.figure, name: 'Figure', basedOn: 'Normal', paragraph: { alignment: AlignmentType.CENTER, keepNext: true, spacing: { before: 120 } } },
      {
        id: STYLE.reference,
        name: 'Reference Item',
        basedOn: 'Normal',
        run: { font: body, size: halfPoints(size - 1.5) },
        paragraph: { spacing: { after: 60, line: 300, lineRule: LineRuleType.AUTO } },
      },
      {
        id: STYLE.coverTitle,
        name: 'Cover Title',
        basedOn: 'Normal',
        run: { font: heading, size: halfPoints(COVER_TITLE_SIZE_PT), bold: false },
        paragraph: { alignment: AlignmentType.CENTER, spacing: { before: 2400, after: 360, line: 360, lineRule: LineRuleType.AUTO } },
      },
      {
        id: STYLE.coverSubtitle,
        name: 'Cover Subtitle',
        basedOn: 'Normal',
        run: { font: heading, size: halfPoints(16), color: '404040' },
        paragraph: { alignment: AlignmentType.CENTER, spacing: { after: 2400 } },
      },
      {
        id: STYLE.coverMeta,
        name: 'Cover Meta',
        basedOn: 'Normal',
        run: { font: body, size: halfPoints(14) },
        paragraph: { alignment: AlignmentType.CENTER, spacing: { after: 160 } },
      },
      {
        id: STYLE.tocHeading,
        name: 'TOC Heading',
        basedOn: 'Normal',
        run: { font: heading, size: halfPoints(size + 4), bold: false },
        paragraph: { alignment: AlignmentType.CENTER, spacing: { before: 240, after: 240 } },
      },
      // The contents lines, as Word's field update writes them too: single-and-a-quarter spaced (the body's
      // 1.5 lines plus docx's spacing made a one-page contents run onto two), each level indented two characters.
      ...[1, 2, 3].map((level) => ({
        id: `TOC${level}`,
        name: `toc ${level}`,
        basedOn: 'Normal',
        next: 'Normal',
        run: { font: body, size: halfPoints(size) },
        paragraph: { spacing: { line: 300, lineRule: LineRuleType.AUTO, before: 0, after: 60 }, indent: { left: (level - 1) * 2 * size * 20 } },
      })),
      {
        id: STYLE.header,
        name: 'header',
        basedOn: 'Normal',
        run: { font: body, size: halfPoints(HEADER_SIZE_PT), color: '595959' },
        paragraph: {
          alignment: AlignmentType.CENTER,
          spacing: { line: 240, lineRule: LineRuleType.AUTO },
          border: { bottom: { style: BorderStyle.SINGLE, size: 4, color: 'A6A6A6', space: 1 } },
        },
      },
      {
        id: STYLE.footer,
        name: 'footer',
        basedOn: 'Normal',
        run: { font: body, size: halfPoints(9) },
        paragraph: { alignment: AlignmentType.CENTER, spacing: { line: 240, lineRule: LineRuleType.AUTO } },
      },
      {
        id: STYLE.placeholder,
        name: 'Placeholder',
        basedOn: 'Normal',
        run: { font: body, color: 'C00000' },
        paragraph: {
          alignment: AlignmentType.CENTER,
          spacing: { before: 120, after: 120 },
          border: {
            top: { style: BorderStyle.DASHED, size: 6, color: 'C00000', space: 4 },
            bottom: { style: BorderStyle.DASHED, size: 6, color: 'C00000', space: 4 },
            left: { style: BorderStyle.DASHED, size: 6, color: 'C00000', space: 4 },
            right: { style: BorderStyle.DASHED, size: 6, color: 'C00000', space: 4 },
          },
        },
      },
    ],
    characterStyles: [
      // The runs of the table of contents' cached entries are in IndexLink, as Word writes them; without the
      // style LibreOffice shows them as underlined web links.
      { id: 'IndexLink', name: 'Index Link', basedOn: 'DefaultParagraphFont', run: { underline: { type: UnderlineType.NONE }, color: 'auto' } },
      {
        id: STYLE.inlineCode,
        name: 'Inline Code',
        basedOn: 'DefaultParagraphFont',
        run: { font: mono, size: halfPoints(size - 1), shading: { type: 'clear', fill: 'F2F2F2', color: 'auto' } },
      },
    ],
  };
}
