// One section's mdast → docx blocks: headings (numbered through the Heading styles), paragraphs, lists,
// tables, figures, quotes, code, footnotes; the references section's list becomes `[1] ...`.
import {
  BorderStyle,
  Bookmark,
  EmphasisMarkType,
  ExternalHyperlink,
  type FileChild,
  FootnoteReferenceRun,
  HeadingLevel,
  ImageRun,
  Paragraph,
  type ParagraphChild,
  SimpleField,
  TextRun,
} from 'docx';
import {
  type BlockContent,
  type Definition,
  type DefinitionContent,
  type FootnoteDefinition,
  type Heading,
  type Image,
  type List,
  type Nodes,
  type Paragraph as MdParagraph,
  type PhrasingContent,
  type Root,
  type RootContent,
  type Table as MdTable,
} from 'mdast';
import { headingLabel, headingLabelJoiner, isReferencesHeading } from '../../../shared/specs/document';
import {
  type CaptionKind,
  captionLabel,
  captionSeparator,
  captionText,
  CROSS_REFERENCE,
  figureIdAfter,
  placeholderCaption,
  referenceKind,
  referencedIds,
} from '../../../shared/specs/document-captions';
import { CITATION, citationLabel, citedKeys } from '../../../shared/specs/document-citations';
import { type RenderContext } from './context';
import { fontSet } from './fonts';
import { effectiveDpi, fitImage, resolveImage, TARGET_DPI } from './images';
import { plainText } from './mdast-text';
import { BULLET_NUMBERING, NUMBERED_HEADING_LEVELS, ORDERED_NUMBERING, REFERENCE_NUMBERING } from './numbering';
import { STYLE } from './styles';
import { convertTable } from './tables';
import { countCjkChars, countWords, joinSoftBreaks, splitByScript } from './text-metrics';

/** A paragraph longer than this many units (Han characters + words) is reported as hard to read. */
export const LONG_PARAGRAPH_UNITS = 400;
const LIST_STEP = 420;
const HEADING_LEVELS = [HeadingLevel.HEADING_1, HeadingLevel.HEADING_2, HeadingLevel.HEADING_3, HeadingLevel.HEADING_4, HeadingLevel.HEADING_5];
/** The contents list stops at the third level, as the TOC field's `\o "1-3"` does. */
const TOC_LEVELS = 3;
const FOOTNOTE_STYLE = 'FootnoteText';
const UNDEFINED_FOOTNOTE = /\[\^([^\]\s]+)\]/g;

/** `heading`: bold applies to Latin words only, CJK keeps the heading style's face. */
type Format = { bold?: boolean; italics?: boolean; strike?: boolean; hyperlink?: boolean; heading?: boolean };
type Scope = { style: string; sizePt: number; indent: number };
type ListNumbering = { reference: string; instance: number; level: number };
type ListParent = { reference: string; instance: number };

export class SectionConverter {
  private readonly definitions = new Map<string, Definition>();
  private readonly footnoteDefinitions = new Map<string, FootnoteDefinition>();
  private referencesDepth: number | undefined;
  /** The CJK face of **strong** text: the heading face (黑体), since 宋体 has no bold and synthetic bold smears. */
  private readonly strongFace: string;

  constructor(private readonly ctx: RenderContext) {
    this.strongFace = fontSet('heading', ctx.language).eastAsia;
  }

  convert(root: Root): FileChild[] {
    this.collectDefinitions(root);
    this.reportEmptyParts(root);
    this.countStats(root);
    const scope: Scope = { style: STYLE.body, sizePt: this.ctx.template.bodySizePt, indent: 0 };
    const out: FileChild[] = [];
    root.children.forEach((node, i) => {
      this.ctx.block = { index: i + 1, node };
      if (!this.isCaptionParagraph(node)) out.push(...this.block(node, scope));
    });
    this.ctx.block = undefined;
    return out;
  }

  private isCaptionParagraph(node: RootContent): boolean {
    return node.type === 'paragraph' && this.ctx.captions.captionParagraphs.has(node);
  }

  private collectDefinitions(node: Nodes): void {
    if (node.type === 'definition') this.definitions.set(node.identifier, node);
    if (node.type === 'footnoteDefinition') this.footnoteDefinitions.set(node.identifier, node);
    if ('children' in node) for (const child of node.children as Nodes[]) this.collectDefinitions(child);
  }

  private countStats(root: Root): void {
    const text = [plainText(root), ...[...this.footnoteDefinitions.values()].map((d) => d.children.map(plainText).join('\n'))].join('\n');
    this.ctx.stats.words += countWords(text);
    this.ctx.stats.cjk_chars += countCjkChars(text);
  }

  /** A file with only headings, or a heading followed directly by one of the same or a higher level, is empty. */
  private reportEmptyParts(root: Root): void {
    const content = root.children.filter((n) => n.type !== 'definition' && n.type !== 'footnoteDefinition' && !isComment(n));
    const onlyReferences = content.every((n) => n.type === 'heading' && isReferencesHeading(plainText(n).trim())) && (this.ctx.citations?.references.length ?? 0) > 0;
    if (!content.some((n) => n.type !== 'heading') && !onlyReferences) {
      this.ctx.report('empty_section', 'section has no content besides headings');
      return;
    }
    const generatedList = (this.ctx.citations?.references.length ?? 0) > 0;
    content.forEach((node, i) => {
      if (node.type !== 'heading') return;
      // The references heading's list comes from the bibliography.
      if (generatedList && isReferencesHeading(plainText(node).trim())) return;
      const next = content[i + 1];
      if (!next || (next.type === 'heading' && next.depth <= node.depth)) {
        this.ctx.block = { index: root.children.indexOf(node) + 1, node };
        this.ctx.report('empty_section', `heading "${plainText(node).trim()}" has no content`);
      }
    });
    this.ctx.block = undefined;
  }

  private blocks(nodes: readonly RootContent[], scope: Scope): FileChild[] {
    return nodes.flatMap((node) => (this.isCaptionParagraph(node) ? [] : this.block(node, scope)));
  }

  private block(node: RootContent, scope: Scope): FileChild[] {
    switch (node.type) {
      case 'heading':
        return [this.heading(node), ...this.referenceList(node)];
      case 'paragraph':
        return this.paragraph(node, scope);
      case 'list':
        return this.list(node, scope, 0, undefined);
      case 'table': {
        const caption = this.tableCaption(node);
        const table = convertTable(node, this.ctx, (children, bold) => this.inline(children, bold ? { bold: true } : {}));
        // An empty paragraph keeps two tables in a row from merging into one, and spaces the text after.
        return [...caption, table, new Paragraph({ style: STYLE.tableText, children: [] })];
      }
      case 'blockquote':
        return this.blocks(node.children, { ...scope, style: STYLE.quote, indent: scope.indent + 567 });
      case 'code':
        return this.codeBlock(node.value);
      case 'thematicBreak':
        this.ctx.measures.push({ kind: 'fixed', heightTwips: 360 });
        return [new Paragraph({ border: { bottom: { style: BorderStyle.SINGLE, size: 6, color: 'A6A6A6', space: 1 } }, children: [] })];
      case 'definition':
      case 'footnoteDefinition':
        return [];
      case 'html':
        if (!isComment(node)) this.ctx.report('unsupported_markdown', `raw HTML is not rendered: ${truncate(node.value)}`);
        return [];
      default:
        this.ctx.report('unsupported_markdown', `${node.type} blocks are not supported; rendered as plain text`);
        return [new Paragraph({ style: scope.style, children: [new TextRun(plainText(node))] })];
    }
  }

  private heading(node: Heading): Paragraph {
    const ctx = this.ctx;
    const text = plainText(node).trim();
    const references = isReferencesHeading(text);
    if (this.referencesDepth !== undefined && node.depth <= this.referencesDepth) this.referencesDepth = undefined;
    if (references) this.referencesDepth = node.depth;
    ctx.headings.push(text);

    const level = Math.min(node.depth, HEADING_LEVELS.length) - 1;
    const numbered = level < NUMBERED_HEADING_LEVELS && !references;
    const label = numbered ? headingLabel(ctx.template.headingNumbering, ctx.countHeading(level)) : '';
    // Chinese `一、` and `（一）` run straight into the title; the others are followed by a space (the level's suffix).
    const joiner = headingLabelJoiner(ctx.template.headingNumbering, level);
    const bookmark = ctx.bookmark();
    if (level < TOC_LEVELS) ctx.toc.push({ title: label ? `${label}${joiner}${text}` : text, level: level + 1, href: bookmark });

    const size = ctx.template.bodySizePt + ([4, 2, 0, 0, 0][level] ?? 0);
    ctx.measures.push({ kind: 'text', text: `${label} ${text}`, sizePt: size, lineSpacing: ctx.template.lineSpacing, indentTwips: 0, spacingTwips: level === 0 ? 480 : 360 });
    return new Paragraph({
      heading: HEADING_LEVELS[level],
      ...(numbered ? {} : { numbering: false as const }),
      // Latin words are bold (Arial has a bold face); CJK stays in 黑体's own weight.
      children: [new Bookmark({ id: bookmark, children: this.inline(node.children, { bold: true, heading: true }) })],
    });
  }

  private paragraph(node: MdParagraph, scope: Scope, numbering?: ListNumbering, prefix?: string): FileChild[] {
    const out: FileChild[] = [];
    let pending: PhrasingContent[] = [];
    let first = true;
    const flush = (): void => {
      const text = pending.map(plainText).join('');
      if (text.trim() === '' && !(first && (numbering || prefix))) {
        pending = [];
        return;
      }
      out.push(this.textParagraph(pending, scope, first ? numbering : undefined, first ? prefix : undefined));
      first = false;
      pending = [];
    };
    node.children.forEach((child, i) => {
      const previous = node.children[i - 1];
      if (child.type === 'image') {
        flush();
        out.push(...this.figure(child));
      } else if (previous?.type === 'image' && figureIdAfter(child)) {
        // `{#fig:id}` right after the image names the figure; only what follows it is text.
        const rest = figureIdAfter(child)?.rest ?? '';
        if (rest.trim() !== '' && child.type === 'text') pending.push({ ...child, value: rest });
      } else {
        pending.push(child);
      }
    });
    flush();
    return out;
  }

  private textParagraph(children: PhrasingContent[], scope: Scope, numbering?: ListNumbering, prefix?: string): Paragraph {
    const text = joinSoftBreaks(children.map(plainText).join('')).trim();
    const units = countCjkChars(text) + countWords(text);
    if (units > LONG_PARAGRAPH_UNITS) {
      this.ctx.report('long_paragraph', `paragraph of ${units} characters/words (over ${LONG_PARAGRAPH_UNITS}) starting "${truncate(text, 24)}"`);
    }
    const listIndent = numbering ? LIST_STEP * (numbering.level + 1) : 0;
    this.ctx.measures.push({
      kind: 'text',
      text,
      sizePt: scope.sizePt,
      lineSpacing: scope.style === STYLE.body || scope.style === STYLE.listItem || scope.style === STYLE.quote ? this.ctx.template.lineSpacing : 1.15,
      indentTwips: scope.indent + listIndent,
      spacingTwips: scope.style === STYLE.body && !this.ctx.isChinese ? 160 : 40,
    });
    const runs = this.inline(children, {});
    return new Paragraph({
      style: scope.style,
      // docx can't put widow/orphan control in a style, and OOXML leaves it off unless it is said.
      widowControl: true,
      ...(numbering ? { numbering: { reference: numbering.reference, level: numbering.level, instance: numbering.instance } } : {}),
      ...(scope.indent > 0 && !numbering ? { indent: { left: scope.indent } } : {}),
      children: prefix ? [new TextRun(prefix), ...runs] : runs,
    });
  }

  private list(node: List, scope: Scope, level: number, parent: ListParent | undefined): FileChild[] {
    const inReferences = this.referencesDepth !== undefined;
    const reference = inReferences ? REFERENCE_NUMBERING : node.ordered ? ORDERED_NUMBERING : BULLET_NUMBERING;
    // A nested list of the same kind continues its parent's numbering instance one level down; any
    // other list is a new instance, so every ordered list (and reference list) starts again at 1.
    const instance = parent && parent.reference === reference ? parent.instance : this.ctx.listInstance();
    const numberingLevel = reference === REFERENCE_NUMBERING ? 0 : Math.min(level, 8);
    const itemScope: Scope = {
      style: inReferences ? STYLE.reference : STYLE.listItem,
      sizePt: inReferences ? this.ctx.template.bodySizePt - 1.5 : scope.sizePt,
      indent: scope.indent,
    };
    const continuationIndent = scope.indent + LIST_STEP * (numberingLevel + 1);

    return node.children.flatMap((item) => {
      const numbering = { reference, instance, level: numberingLevel };
      const prefix = item.checked === true ? '☑ ' : item.checked === false ? '☐ ' : undefined;
      const out: FileChild[] = [];
      const own = item.children.filter((child) => child.type !== 'list');
      if (!own.some((child) => plainText(child).trim() !== '' || child.type !== 'paragraph')) {
        // A bare `1.` or `-` (or one holding only a nested list) would print a lone number: leave it out and say so.
        const position = node.children.indexOf(item) + 1;
        this.ctx.report('empty_list_item', `item ${position} of the list has no text; it is left out (a lone number or bullet would print)`, item);
        return item.children.flatMap((child) => (child.type === 'list' ? this.list(child, scope, level + 1, { reference, instance }) : []));
      }
      let numbered = false;
      for (const child of item.children) {
        if (child.type === 'list') {
          if (!numbered) out.push(this.textParagraph([], itemScope, numbering, prefix));
          numbered = true;
          out.push(...this.list(child, scope, level + 1, { reference, instance }));
        } else if (child.type === 'paragraph' && !numbered) {
          out.push(...this.paragraph(child, itemScope, numbering, prefix));
          numbered = true;
        } else {
          if (!numbered) out.push(this.textParagraph([], itemScope, numbering, prefix));
          numbered = true;
          out.push(...this.block(child, { ...itemScope, indent: continuationIndent }));
        }
      }
      if (!numbered) out.push(this.textParagraph([], itemScope, numbering, prefix));
      return out;
    });
  }

  private figure(image: Image): Paragraph[] {
    const ctx = this.ctx;
    const caption = (image.alt ?? image.title ?? '').trim();
    const numbered = ctx.captions.figures.get(image);
    const label = this.captionLabelRuns('figure', numbered?.number, numbered?.id);
    const captionParagraph = new Paragraph({
      style: STYLE.caption,
      widowControl: true,
      children: [...label, ...(caption ? [new TextRun(`${captionSeparator(ctx.isChinese)}${caption}`)] : [])],
    });
    const number = numbered ? captionLabel('figure', numbered.number, ctx.isChinese) : '';
    ctx.measures.push({ kind: 'text', text: `${number} ${caption}`, sizePt: ctx.template.bodySizePt - 1.5, lineSpacing: 1, indentTwips: 0, spacingTwips: 300 });

    const resolved = resolveImage(ctx.folder, image.url);
    if (!resolved.ok) {
      ctx.report(resolved.reason === 'unsupported' ? 'unsupported_markdown' : 'missing_image', resolved.message, image);
      ctx.measures.push({ kind: 'fixed', heightTwips: 720 });
      const missing = ctx.isChinese ? `［图片缺失：${image.url}］` : `[Missing image: ${image.url}]`;
      return [new Paragraph({ style: STYLE.placeholder, keepNext: true, children: [new TextRun(missing)] }), captionParagraph];
    }
    const size = fitImage(resolved.info, ctx.geometry);
    const dpi = effectiveDpi(resolved.info, size.width);
    if (dpi < TARGET_DPI) {
      const cm = ((size.width / 96) * 2.54).toFixed(1);
      ctx.report(
        'image_upscaled',
        `image ${image.url} is ${resolved.info.width}×${resolved.info.height} px, placed ${cm} cm wide it prints at ${dpi} dpi ` +
          `(under ${TARGET_DPI}): supply it at least ${Math.ceil((size.width / 96) * TARGET_DPI)} px wide`,
        image,
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
  private tableCaption(table: MdTable): Paragraph[] {
    const captioned = this.ctx.captions.tables.get(table);
    if (!captioned) return [];
    if (captioned.placeholder) return [this.placeholderTableCaption(table, captioned.number)];
    const text = captionText(captioned.caption);
    this.ctx.measures.push({ kind: 'text', text: `${captionLabel('table', captioned.number, this.ctx.isChinese)} ${text}`, sizePt: this.ctx.template.bodySizePt - 1.5, lineSpacing: 1, indentTwips: 0, spacingTwips: 300 });
    return [
      new Paragraph({
        style: STYLE.tableCaption,
        widowControl: true,
        children: [
          ...this.captionLabelRuns('table', captioned.number, captioned.id),
          ...(text ? [new TextRun(captionSeparator(this.ctx.isChinese)), ...this.inline(captioned.caption, {})] : []),
        ],
      }),
    ];
  }

  /** `表 3　【待补充表题】` in red, and an issue naming the table by its header, so the author writes the caption. */
  private placeholderTableCaption(table: MdTable, number: number): Paragraph {
    const ctx = this.ctx;
    const header = (table.children[0]?.children ?? []).map((cell) => plainText(cell).trim()).filter((t) => t !== '');
    const label = captionLabel('table', number, ctx.isChinese);
    ctx.report(
      'uncaptioned_table',
      `the table with the header "${truncate(header.join(' | '), 50)}" has no caption; it is numbered ${label} with a placeholder caption: ` +
        `write "${ctx.isChinese ? '表：标题 {#tbl:id}' : 'Table: title {#tbl:id}'}" in the paragraph right before it`,
      table,
    );
    const placeholder = placeholderCaption(ctx.isChinese);
    ctx.measures.push({ kind: 'text', text: `${label} ${placeholder}`, sizePt: ctx.template.bodySizePt - 1.5, lineSpacing: 1, indentTwips: 0, spacingTwips: 300 });
    return new Paragraph({
      style: STYLE.tableCaption,
      widowControl: true,
      children: [...this.captionLabelRuns('table', number, undefined), new TextRun(captionSeparator(ctx.isChinese)), new TextRun({ text: placeholder, color: 'C00000' })],
    });
  }

  /**
   * `表 1` as Word writes a caption: the word and a SEQ field (cached number, so every reader shows it), inside a
   * bookmark when the caption has an id, which cross-references' REF fields point at.
   */
  private captionLabelRuns(kind: CaptionKind, number: number | undefined, id: string | undefined): ParagraphChild[] {
    if (number === undefined) return [];
    const word = captionLabel(kind, '', this.ctx.isChinese).trimEnd();
    const runs: ParagraphChild[] = [new TextRun(`${word} `), new SimpleField(`SEQ ${word} \\* ARABIC`, String(number))];
    return id ? [new Bookmark({ id: this.ctx.captionBookmark(id), children: runs })] : runs;
  }

  private codeBlock(value: string): Paragraph[] {
    const lines = value.replace(/\n$/, '').split('\n');
    for (const line of lines) {
      this.ctx.measures.push({ kind: 'text', text: line || ' ', sizePt: this.ctx.template.bodySizePt - 2, lineSpacing: 1, indentTwips: 0, spacingTwips: 0 });
    }
    return lines.map((line) => new Paragraph({ style: STYLE.code, children: [new TextRun(line.replace(/\t/g, '    '))] }));
  }

  private inline(nodes: readonly PhrasingContent[], format: Format): ParagraphChild[] {
    return nodes.flatMap((node) => this.inlineNode(node, format));
  }

  /**
   * Runs for text in a format, split by script where bold or emphasis differ: CJK text is never given a
   * synthetic bold or slant. **Strong** CJK takes the heading face (黑体), emphasised CJK takes 着重号
   * (`w:em="dot"`, not on punctuation); Latin text is bold or italic as usual.
   */
  private runs(text: string, f: Format): TextRun[] {
    const base = { ...(f.strike ? { strike: true } : {}), ...(f.hyperlink ? { style: 'Hyperlink' } : {}) };
    if (!f.bold && !f.italics) return [new TextRun({ text, ...base })];
    return splitByScript(text).map(({ text: part, script }) => {
      const latin = script === 'latin';
      return new TextRun({
        text: part,
        ...base,
        ...(f.bold && latin ? { bold: true } : {}),
        ...(f.bold && !latin && !f.heading ? { font: { eastAsia: this.strongFace } } : {}),
        ...(f.italics && latin ? { italics: true } : {}),
        ...(f.italics && script === 'cjk' ? { emphasisMark: { type: EmphasisMarkType.DOT } } : {}),
      });
    });
  }

  /** Text with its cross-references `[@tbl:id]` turned into REF fields showing `表 2`. */
  private textRuns(raw: string, format: Format, node: PhrasingContent): ParagraphChild[] {
    // remark makes `[^x]` a footnote reference only when `[^x]: …` exists; otherwise it stays text that would
    // print as is.
    const text = raw.replace(UNDEFINED_FOOTNOTE, (_m, label: string) => {
      this.reportUndefinedFootnote(label, node);
      return '';
    });
    const out: ParagraphChild[] = [];
    let at = 0;
    for (const match of text.matchAll(CROSS_REFERENCE)) {
      const index = match.index ?? 0;
      if (index > at) out.push(...this.citedRuns(text.slice(at, index), format, node));
      referencedIds(match).forEach((id, i) => {
        if (i > 0) out.push(...this.runs(this.ctx.isChinese ? '、' : ', ', format));
        out.push(this.crossReference(id, node));
      });
      at = index + match[0].length;
    }
    if (at < text.length) out.push(...this.citedRuns(text.slice(at), format, node));
    return out;
  }

  /** Text with its citations `[@key]` written as the style's numbers (`[1,3-5]`, superscript in GB/T 7714). */
  private citedRuns(text: string, format: Format, node: PhrasingContent): ParagraphChild[] {
    const citations = this.ctx.citations;
    if (!citations) return this.runs(text, format);
    const out: ParagraphChild[] = [];
    let at = 0;
    for (const match of text.matchAll(CITATION)) {
      const index = match.index ?? 0;
      if (index > at) out.push(...this.runs(text.slice(at, index), format));
      const numbers = citedKeys(match).map((key) => {
        const number = citations.numbers.get(key);
        if (number === undefined) {
          const why = citations.hasBibliography ? 'is in no bibliography file of the folder' : 'has no bibliography to come from (add a .bib or CSL-JSON file to the document folder)';
          this.ctx.report('unknown_citation', `[@${key}] ${why}; it prints as "?"`, node);
        }
        return number ?? null;
      });
      out.push(new TextRun({ text: citationLabel(numbers, citations.look), ...(citations.look.superscript ? { superScript: true } : {}) }));
      at = index + match[0].length;
    }
    if (at < text.length) out.push(...this.runs(text.slice(at), format));
    return out;
  }

  /** The cited entries, numbered `[1]…`, right under the first references heading. */
  private referenceList(heading: Heading): Paragraph[] {
    const citations = this.ctx.citations;
    if (!citations || citations.written || citations.references.length === 0 || !isReferencesHeading(plainText(heading).trim())) return [];
    citations.written = true;
    const instance = this.ctx.listInstance();
    const sizePt = this.ctx.template.bodySizePt - 1.5;
    return citations.references.map((reference) => {
      this.ctx.measures.push({ kind: 'text', text: `[${reference.number}] ${reference.text}`, sizePt, lineSpacing: 1.15, indentTwips: LIST_STEP, spacingTwips: 40 });
      return new Paragraph({
        style: STYLE.reference,
        widowControl: true,
        numbering: { reference: REFERENCE_NUMBERING, level: 0, instance },
        children: this.runs(reference.text, {}),
      });
    });
  }

  private crossReference(id: string, node: PhrasingContent): ParagraphChild {
    const target = this.ctx.captions.ids.get(id);
    if (!target) {
      const kind = referenceKind(id);
      this.ctx.report('unknown_reference', `[@${id}] refers to no ${kind === 'table' ? 'captioned table' : 'figure'} with that id; it prints as "${captionLabel(kind, '??', this.ctx.isChinese)}"`, node);
      return new TextRun(captionLabel(kind, '??', this.ctx.isChinese));
    }
    // A REF field to the caption's bookmark: Word keeps it right when tables move; the cached text is what
    // every other reader shows.
    return new SimpleField(`REF ${this.ctx.captionBookmark(id)} \\h`, captionLabel(target.kind, target.number, this.ctx.isChinese));
  }

  private inlineNode(node: PhrasingContent, format: Format): ParagraphChild[] {
    const run = (text: string, extra: Format = {}): TextRun[] => this.runs(text, { ...format, ...extra });
    switch (node.type) {
      case 'text':
        return this.textRuns(joinSoftBreaks(node.value), format, node);
      case 'strong':
        return this.inline(node.children, { ...format, bold: true });
      case 'emphasis':
        return this.inline(node.children, { ...format, italics: true });
      case 'delete':
        return this.inline(node.children, { ...format, strike: true });
      case 'inlineCode':
        return [new TextRun({ text: node.value, style: STYLE.inlineCode, ...(format.bold ? { bold: true } : {}) })];
      case 'break':
        return [new TextRun({ break: 1 })];
      case 'link':
        return this.link(node.url, node.children, format);
      case 'linkReference': {
        const definition = this.definitions.get(node.identifier);
        return definition ? this.link(definition.url, node.children, format) : this.inline(node.children, format);
      }
      case 'footnoteReference':
        return this.footnoteReference(node.identifier, node.label ?? node.identifier, node);
      case 'image':
      case 'imageReference':
        this.ctx.report('unsupported_markdown', `images inside headings or tables are not embedded: ${node.alt ?? ''}`, node);
        return run(`[${node.alt ?? ''}]`);
      case 'html':
        if (/^<br\s*\/?>$/i.test(node.value.trim())) return [new TextRun({ break: 1 })];
        this.ctx.report('unsupported_markdown', `inline HTML is not rendered: ${truncate(node.value)}`, node);
        return [];
      default:
        return run(plainText(node));
    }
  }

  private link(url: string, children: readonly PhrasingContent[], format: Format): ParagraphChild[] {
    if (!/^(https?:|mailto:)/i.test(url)) return this.inline(children, format);
    return [new ExternalHyperlink({ link: url, children: this.inline(children, { ...format, hyperlink: true }) })];
  }

  /** Each reference gets a Word footnote of its own (Word numbers notes by reference, not by definition). */
  private footnoteReference(identifier: string, label: string, node: PhrasingContent): ParagraphChild[] {
    const definition = this.footnoteDefinitions.get(identifier);
    if (!definition) {
      this.reportUndefinedFootnote(label, node);
      return [];
    }
    const id = this.ctx.footnoteId();
    this.ctx.footnotes[String(id)] = { children: this.footnoteParagraphs(definition.children) };
    return [new FootnoteReferenceRun(id)];
  }

  /** The raw marker would print as `[^x]` in a reviewer's copy: it is left out, and the report says where. */
  private reportUndefinedFootnote(label: string, node: PhrasingContent): void {
    this.ctx.report('undefined_footnote', `footnote [^${label}] is referenced but never defined (add "[^${label}]: text"); the marker is left out`, node);
  }

  private footnoteParagraphs(children: readonly (BlockContent | DefinitionContent)[]): Paragraph[] {
    const paragraphs: Paragraph[] = [];
    for (const child of children) {
      if (child.type === 'paragraph') {
        const phrasing = child.children.filter((c) => c.type !== 'footnoteReference' && c.type !== 'image');
        // Word separates the note's number from its text with a space; docx writes only the number.
        const lead = paragraphs.length === 0 ? [new TextRun(' ')] : [];
        paragraphs.push(new Paragraph({ style: FOOTNOTE_STYLE, children: [...lead, ...this.inline(phrasing, {})] }));
        continue;
      }
      const text = plainText(child).trim();
      if (text) paragraphs.push(new Paragraph({ style: FOOTNOTE_STYLE, children: [new TextRun(text)] }));
    }
    return paragraphs.length > 0 ? paragraphs : [new Paragraph({ style: FOOTNOTE_STYLE, children: [] })];
  }
}

function isComment(node: Nodes): boolean {
  return node.type === 'html' && /^\s*<!--[\s\S]*-->\s*$/.test(node.value);
}

function truncate(text: string, max = 60): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
