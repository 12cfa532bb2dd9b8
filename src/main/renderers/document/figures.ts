// Figures and table captions: the image sized to the text block at print resolution, and `图 1` / `表 1`
// labels written as Word writes them (a SEQ field, bookmarked for cross-references).
import { Bookmark, ImageRun, Paragraph, type ParagraphChild, SimpleField, TextRun } from 'docx';
import { type Image, type Table as MdTable } from 'mdast';
import { type CaptionKind, captionLabel, captionSeparator, captionText, placeholderCaption } from '../../../shared/specs/document-captions';
import { type RenderContext } from './context';
import { effectiveDpi, fitImage, resolveImage, TARGET_DPI } from './images';
import { type InlineConverter, truncate } from './inline';
import { plainText } from './mdast-text';
import { STYLE } from './styles';

export function figureParagraphs(ctx: RenderContext, image: Image): Paragraph[] {
  const caption = (image.alt ?? image.title ?? '').trim();
  const numbered = ctx.captions.figures.get(image);
  const label = captionLabelRuns(ctx, 'figure', numbered?.number, numbered?.id);
  const captionParagraph = new Paragraph({
    style: STYLE.caption,
    widowControl: true,
    children: [...label, ...(caption ? [new TextRun(`${captionSeparator(ctx.isChinese)}${caption}`)] : [])],
  });
  const number = numbered ? captionLabel('figure', numbered.number, ctx.isChinese) : '';
  ctx.measures.push({ kind: 'text', text: `${number} ${caption}`, sizePt: ctx.template.bodySizePt - 1.5, lineSpacing: 1, indentTwips: 0, spacingTwips: 300 });

  const resolved = resolveImage(ctx.folder, image.url);
  if (!resolved.ok) {
    ctx.report(resolved.reason === 'unsupported' ? 'unsupported_markdown' : 'missing_image', resolved.message, image, {
      params: { image: image.url, ...(resolved.construct ? { construct: resolved.construct } : {}) },
    });
    ctx.measures.push({ kind: 'fixed', heightTwips: 720 });
    const missing = ctx.isChinese ? `［图片缺失：${image.url}］` : `[Missing image: ${image.url}]`;
    return [new Paragraph({ style: STYLE.placeholder, keepNext: true, children: [new TextRun(missing)] }), captionParagraph];
  }
  const size = fitImage(resolved.info, ctx.geometry);
  const dpi = effectiveDpi(resolved.info, size.width);
  if (dpi < TARGET_DPI) {
    const cm = ((size.width / 96) * 2.54).toFixed(1);
    const needed = Math.ceil((size.width / 96) * TARGET_DPI);
    ctx.report(
      'image_upscaled',
      `image ${image.url} is ${resolved.info.width}×${resolved.info.height} px, placed ${cm} cm wide it prints at ${dpi} dpi ` +
        `(under ${TARGET_DPI}): supply it at least ${needed} px wide`,
      image,
      { params: { image: image.url, dpi, limit: TARGET_DPI, needed } },
    );
  }
  ctx.stats.images += 1;
  ctx.measures.push({ kind: 'fixed', heightTwips: size.height * 15 + 240 });
  return [
    new Paragraph({
      style: STYLE.figure,
      children: [
        new ImageRun({
          type: resolved.info.type,
          data: resolved.data,
          transformation: size,
          altText: { name: number || 'figure', title: caption || number, description: caption || number },
        }),
      ],
    }),
    captionParagraph,
  ];
}

/** `表 1　caption` above a captioned table; nothing for a table without a caption paragraph. */
export function tableCaption(ctx: RenderContext, inlines: InlineConverter, table: MdTable): Paragraph[] {
  const captioned = ctx.captions.tables.get(table);
  if (!captioned) return [];
  if (captioned.placeholder) return [placeholderTableCaption(ctx, table, captioned.number)];
  const text = captionText(captioned.caption);
  ctx.measures.push({ kind: 'text', text: `${captionLabel('table', captioned.number, ctx.isChinese)} ${text}`, sizePt: ctx.template.bodySizePt - 1.5, lineSpacing: 1, indentTwips: 0, spacingTwips: 300 });
  return [
    new Paragraph({
      style: STYLE.tableCaption,
      widowControl: true,
      children: [
        ...captionLabelRuns(ctx, 'table', captioned.number, captioned.id),
        ...(text ? [new TextRun(captionSeparator(ctx.isChinese)), ...inlines.inline(captioned.caption, {})] : []),
      ],
    }),
  ];
}

/** `表 3　【待补充表题】` in red, and an issue naming the table by its header, so the author writes the caption. */
function placeholderTableCaption(ctx: RenderContext, table: MdTable, number: number): Paragraph {
  const header = (table.children[0]?.children ?? []).map((cell) => plainText(cell).trim()).filter((t) => t !== '');
  const label = captionLabel('table', number, ctx.isChinese);
  ctx.report(
    'uncaptioned_table',
    `the table with the header "${truncate(header.join(' | '), 50)}" has no caption; it is numbered ${label} with a placeholder caption: ` +
      `write "${ctx.isChinese ? '表：标题 {#tbl:id}' : 'Table: title {#tbl:id}'}" in the paragraph right before it`,
    table,
    { params: { label } },
  );
  const placeholder = placeholderCaption(ctx.isChinese);
  ctx.measures.push({ kind: 'text', text: `${label} ${placeholder}`, sizePt: ctx.template.bodySizePt - 1.5, lineSpacing: 1, indentTwips: 0, spacingTwips: 300 });
  return new Paragraph({
    style: STYLE.tableCaption,
    widowControl: true,
    children: [...captionLabelRuns(ctx, 'table', number, undefined), new TextRun(captionSeparator(ctx.isChinese)), new TextRun({ text: placeholder, color: 'C00000' })],
  });
}

/**
 * `表 1` as Word writes a caption: the word and a SEQ field (cached number, so every reader shows it), inside a
 * bookmark when the caption has an id, which cross-references' REF fields point at.
 */
function captionLabelRuns(ctx: RenderContext, kind: CaptionKind, number: number | undefined, id: string | undefined): ParagraphChild[] {
  if (number === undefined) return [];
  const word = captionLabel(kind, '', ctx.isChinese).trimEnd();
  const runs: ParagraphChild[] = [new TextRun(`${word} `), new SimpleField(`SEQ ${word} \\* ARABIC`, String(number))];
  return id ? [new Bookmark({ id: ctx.captionBookmark(id), children: runs })] : runs;
}
