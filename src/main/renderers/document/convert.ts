// One section's mdast → docx blocks: headings (numbered through the Heading styles), paragraphs, lists,
// tables, quotes, code; the references section's list becomes `[1] ...`. Text inside blocks is inline.ts's
// job, figures and captions figures.ts's.
import { BorderStyle, Bookmark, type FileChild, HeadingLevel, Paragraph, TextRun } from 'docx';
import { type Definition, type FootnoteDefinition, type Heading, type List, type Nodes, type Paragraph as MdParagraph, type PhrasingContent, type Root, type RootContent } from 'mdast';
import { headingLabel, headingLabelJoiner, isReferencesHeading } from '../../../shared/specs/document';
import { captionLabel, captionSeparator, captionText, CROSS_REFERENCE, figureIdAfter, placeholderCaption, referencedIds } from '../../../shared/specs/document-captions';
import { CITATION, citationLabel, citedKeys } from '../../../shared/specs/document-citations';
import { type RenderContext } from './context';
import { figureParagraphs, tableCaption } from './figures';
import { InlineConverter, truncate } from './inline';
import { plainText } from './mdast-text';
import { BULLET_NUMBERING, NUMBERED_HEADING_LEVELS, ORDERED_NUMBERING, REFERENCE_NUMBERING } from './numbering';
import { STYLE } from './styles';
import { convertTable } from './tables';
import { countCjkChars, countWords, joinSoftBreaks } from './text-metrics';

/** A paragraph longer than this many units (Han characters + words) is reported as hard to read. */
export const LONG_PARAGRAPH_UNITS = 400;
const LIST_STEP = 420;
const HEADING_LEVELS = [HeadingLevel.HEADING_1, HeadingLevel.HEADING_2, HeadingLevel.HEADING_3, HeadingLevel.HEADING_4, HeadingLevel.HEADING_5];
/** The contents list stops at the third level, as the TOC field's `\o "1-3"` does. */
const TOC_LEVELS = 3;

type Scope = { style: string; sizePt: number; indent: number };
type ListNumbering = { reference: string; instance: number; level: number };
type ListParent = { reference: string; instance: number };

export class SectionConverter {
  private readonly definitions = new Map<string, Definition>();
  private readonly footnoteDefinitions = new Map<string, FootnoteDefinition>();
  private referencesDepth: number | undefined;
  private readonly inlines: InlineConverter;

  constructor(private readonly ctx: RenderContext) {
    this.inlines = new InlineConverter(ctx, this.definitions, this.footnoteDefinitions);
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
    const text = [this.printedBlocks(root), ...[...this.footnoteDefinitions.values()].map((d) => d.children.map(plainText).join('\n'))].join('\n');
    this.count(this.printed(text));
  }

  /** A node's text with its captions as they print: `表 2　标题` above its table, `图 1　标题` for a figure, no `{#id}`. */
  private printedBlocks(node: Nodes): string {
    const { captions, isChinese } = this.ctx;
    const label = (kind: 'table' | 'figure', n: number, caption: string): string => `${captionLabel(kind, n, isChinese)}${captionSeparator(isChinese)}${caption}`;
    if (node.type === 'paragraph' && captions.captionParagraphs.has(node)) return '';
    if (node.type === 'table') {
      const numbered = captions.tables.get(node);
      const caption = numbered ? label('table', numbered.number, numbered.placeholder ? placeholderCaption(isChinese) : captionText(numbered.caption)) : '';
      // A cell is a paragraph of its own: cells and rows are kept apart so their words are not run together.
      return [caption, ...node.children.map((row) => row.children.map(plainText).join(' '))].join('\n');
    }
    if (node.type === 'paragraph') {
      return node.children
        .map((child, i) => {
          const previous = node.children[i - 1];
          if (child.type === 'image') return `\n${label('figure', captions.figures.get(child)?.number ?? 0, (child.alt ?? '').trim())}\n`;
          if (previous?.type === 'image' && figureIdAfter(child)) return figureIdAfter(child)?.rest ?? '';
          return plainText(child);
        })
        .join('');
    }
    if (node.type === 'footnoteDefinition' || node.type === 'definition' || !('children' in node)) return plainText(node);
    return (node.children as Nodes[]).map((child) => this.printedBlocks(child)).join(node.type === 'tableRow' ? ' ' : '\n');
  }

  private count(text: string): void {
    this.ctx.stats.words += countWords(text);
    this.ctx.stats.cjk_chars += countCjkChars(text);
  }

  /** Text as the document prints it: cross-references as `表 2`, citations as the style's numbers (the counts are of what prints). */
  private printed(text: string): string {
    const { captions, citations, isChinese } = this.ctx;
    const crossReferenced = replaceMatches(text, CROSS_REFERENCE, (match) =>
      referencedIds(match)
        .map((id) => {
          const target = captions.ids.get(id);
          return target ? captionLabel(target.kind, target.number, isChinese) : '??';
        })
        .join(isChinese ? '、' : ', '),
    );
    if (!citations) return crossReferenced;
    return replaceMatches(crossReferenced, CITATION, (match) => citationLabel(citedKeys(match).map((key) => citations.numbers.get(key) ?? null), citations.look));
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
        this.ctx.report('empty_section', `heading "${plainText(node).trim()}" has no content`, undefined, { params: { heading: plainText(node).trim() } });
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
        const caption = tableCaption(this.ctx, this.inlines, node);
        const table = convertTable(node, this.ctx, (children, bold) => this.inlines.inline(children, bold ? { bold: true } : {}));
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
        if (!isComment(node)) this.ctx.report('unsupported_markdown', `raw HTML is not rendered: ${truncate(node.value)}`, undefined, { params: { construct: 'html' } });
        return [];
      default:
        this.ctx.report('unsupported_markdown', `${node.type} blocks are not supported; rendered as plain text`, undefined, { params: { construct: 'block' } });
        return [new Paragraph({ style: scope.style, children: [new TextRun(plainText(node))] })];
    }
  }

  private heading(node: Heading): Paragraph {
    const ctx = this.ctx;
    const text = plainText(node).trim();
    const references = isReferencesHeading(text);
    if (this.referencesDepth !== undefined && node.depth <= this.referencesDepth) this.referencesDepth = undefined;
    if (references) this.referencesDepth = node.depth;
    ctx.headings.push({ text, depth: node.depth });

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
      children: [new Bookmark({ id: bookmark, children: this.inlines.inline(node.children, { bold: true, heading: true }) })],
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
        out.push(...figureParagraphs(this.ctx, child));
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
      this.ctx.report('long_paragraph', `paragraph of ${units} characters/words (over ${LONG_PARAGRAPH_UNITS}) starting "${truncate(text, 24)}"`, undefined, {
        params: { units, limit: LONG_PARAGRAPH_UNITS },
      });
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
    const runs = this.inlines.inline(children, {});
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
        this.ctx.report('empty_list_item', `item ${position} of the list has no text; it is left out (a lone number or bullet would print)`, item, { params: { item: position } });
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

  private codeBlock(value: string): Paragraph[] {
    const lines = value.replace(/\n$/, '').split('\n');
    for (const line of lines) {
      this.ctx.measures.push({ kind: 'text', text: line || ' ', sizePt: this.ctx.template.bodySizePt - 2, lineSpacing: 1, indentTwips: 0, spacingTwips: 0 });
    }
    return lines.map((line) => new Paragraph({ style: STYLE.code, children: [new TextRun(line.replace(/\t/g, '    '))] }));
  }

  /** The cited entries, numbered `[1]…`, right under the first references heading. */
  private referenceList(heading: Heading): Paragraph[] {
    const citations = this.ctx.citations;
    if (!citations || citations.written || citations.references.length === 0 || !isReferencesHeading(plainText(heading).trim())) return [];
    citations.written = true;
    const instance = this.ctx.listInstance();
    const sizePt = this.ctx.template.bodySizePt - 1.5;
    const { references } = citations;
    return references.map((reference, i) => {
      this.count(reference.text);
      this.ctx.measures.push({ kind: 'text', text: `[${reference.number}] ${reference.text}`, sizePt, lineSpacing: 1.15, indentTwips: LIST_STEP, spacingTwips: 40 });
      return new Paragraph({
        style: STYLE.reference,
        widowControl: true,
        // An entry is never split over two pages, and the last one never stands alone on the list's last page.
        keepLines: true,
        ...(i === references.length - 2 ? { keepNext: true } : {}),
        numbering: { reference: REFERENCE_NUMBERING, level: 0, instance },
        children: this.inlines.runs(reference.text, { ragged: true }),
      });
    });
  }
}

function replaceMatches(text: string, pattern: RegExp, by: (match: RegExpMatchArray) => string): string {
  let out = '';
  let at = 0;
  for (const match of text.matchAll(pattern)) {
    out += text.slice(at, match.index) + by(match);
    at = (match.index ?? 0) + match[0].length;
  }
  return out + text.slice(at);
}

function isComment(node: Nodes): boolean {
  return node.type === 'html' && /^\s*<!--[\s\S]*-->\s*$/.test(node.value);
}

