// One section's mdast → docx blocks: headings (numbered through the Heading styles), paragraphs, lists,
// tables, figures, quotes, code, footnotes; the references section's list becomes `[1] ...`.
import {
  BorderStyle,
  Bookmark,
  ExternalHyperlink,
  type FileChild,
  FootnoteReferenceRun,
  HeadingLevel,
  ImageRun,
  Paragraph,
  type ParagraphChild,
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
} from 'mdast';
import { headingLabel, isReferencesHeading } from '../../../shared/specs/document';
import { type RenderContext } from './context';
import { fitImage, resolveImage } from './images';
import { plainText } from './mdast-text';
import { BULLET_NUMBERING, NUMBERED_HEADING_LEVELS, ORDERED_NUMBERING, REFERENCE_NUMBERING } from './numbering';
import { STYLE } from './styles';
import { convertTable } from './tables';
import { countCjkChars, countWords, joinSoftBreaks } from './text-metrics';

/** A paragraph longer than this many units (Han characters + words) is reported as hard to read. */
export const LONG_PARAGRAPH_UNITS = 400;
const LIST_STEP = 420;
const HEADING_LEVELS = [HeadingLevel.HEADING_1, HeadingLevel.HEADING_2, HeadingLevel.HEADING_3, HeadingLevel.HEADING_4];
const FOOTNOTE_STYLE = 'FootnoteText';

type Format = { bold?: boolean; italics?: boolean; strike?: boolean; hyperlink?: boolean };
type Scope = { style: string; sizePt: number; indent: number };
type ListNumbering = { reference: string; instance: number; level: number };
type ListParent = { reference: string; instance: number };

export class SectionConverter {
  private readonly definitions = new Map<string, Definition>();
  private readonly footnoteDefinitions = new Map<string, FootnoteDefinition>();
  private referencesDepth: number | undefined;

  constructor(private readonly ctx: RenderContext) {}

  convert(root: Root): FileChild[] {
    this.collectDefinitions(root);
    this.reportEmptyParts(root);
    this.countStats(root);
    return this.blocks(root.children, { style: STYLE.body, sizePt: this.ctx.template.bodySizePt, indent: 0 });
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
    if (!content.some((n) => n.type !== 'heading')) {
      this.ctx.report('empty_section', 'section has no content besides headings');
      return;
    }
    content.forEach((node, i) => {
      if (node.type !== 'heading') return;
      const next = content[i + 1];
      if (!next || (next.type === 'heading' && next.depth <= node.depth)) {
        this.ctx.report('empty_section', `heading "${plainText(node).trim()}" has no content`);
      }
    });
  }

  private blocks(nodes: readonly RootContent[], scope: Scope): FileChild[] {
    return nodes.flatMap((node) => this.block(node, scope));
  }

  private block(node: RootContent, scope: Scope): FileChild[] {
    switch (node.type) {
      case 'heading':
        return [this.heading(node)];
      case 'paragraph':
        return this.paragraph(node, scope);
      case 'list':
        return this.list(node, scope, 0, undefined);
      case 'table': {
        const table = convertTable(node, this.ctx, (children, bold) => this.inline(children, bold ? { bold: true } : {}));
        // An empty paragraph keeps two tables in a row from merging into one, and spaces the text after.
        return [table, new Paragraph({ style: STYLE.tableText, children: [] })];
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
    const joiner = ctx.template.headingNumbering === 'chinese' && level < 2 ? '' : ' ';
    const bookmark = ctx.bookmark();
    if (level < NUMBERED_HEADING_LEVELS) ctx.toc.push({ title: label ? `${label}${joiner}${text}` : text, level: level + 1, href: bookmark });

    const size = ctx.template.bodySizePt + ([4, 2, 0, 0][level] ?? 0);
    ctx.measures.push({ kind: 'text', text: `${label} ${text}`, sizePt: size, lineSpacing: ctx.template.lineSpacing, indentTwips: 0, spacingTwips: level === 0 ? 480 : 360 });
    return new Paragraph({
      heading: HEADING_LEVELS[level],
      ...(numbered ? {} : { numbering: false as const }),
      children: [new Bookmark({ id: bookmark, children: this.inline(node.children, {}) })],
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
    for (const child of node.children) {
      if (child.type === 'image') {
        flush();
        out.push(...this.figure(child));
      } else {
        pending.push(child);
      }
    }
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
    const resolved = resolveImage(ctx.folder, image.url);
    if (!resolved.ok) {
      ctx.report(resolved.reason === 'unsupported' ? 'unsupported_markdown' : 'missing_image', resolved.message);
      ctx.measures.push({ kind: 'fixed', heightTwips: 720 });
      const label = ctx.isChinese ? `［图片缺失：${image.url}${caption ? `　${caption}` : ''}］` : `[Missing image: ${image.url}${caption ? ` — ${caption}` : ''}]`;
      return [new Paragraph({ style: STYLE.placeholder, children: [new TextRun(label)] })];
    }
    const size = fitImage(resolved.info, ctx.geometry);
    const n = ctx.figureNumber();
    ctx.stats.images += 1;
    ctx.measures.push({ kind: 'fixed', heightTwips: size.height * 15 + 240 });
    const number = ctx.isChinese ? `图 ${n}` : `Figure ${n}.`;
    ctx.measures.push({ kind: 'text', text: `${number} ${caption}`, sizePt: ctx.template.bodySizePt - 1.5, lineSpacing: 1, indentTwips: 0, spacingTwips: 300 });
    return [
      new Paragraph({
        style: STYLE.figure,
        children: [
          new ImageRun({
            type: resolved.info.type,
            data: resolved.data,
            transformation: size,
            altText: { name: `${number}`, title: caption || number, description: caption || number },
          }),
        ],
      }),
      new Paragraph({ style: 'Caption', children: [new TextRun(caption ? `${number}${ctx.isChinese ? '　' : ' '}${caption}` : number)] }),
    ];
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

  private inlineNode(node: PhrasingContent, format: Format): ParagraphChild[] {
    const run = (text: string, extra: Format = {}): TextRun => {
      const f = { ...format, ...extra };
      return new TextRun({
        text,
        ...(f.bold ? { bold: true } : {}),
        ...(f.italics ? { italics: true } : {}),
        ...(f.strike ? { strike: true } : {}),
        ...(f.hyperlink ? { style: 'Hyperlink' } : {}),
      });
    };
    switch (node.type) {
      case 'text':
        return [run(joinSoftBreaks(node.value))];
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
        return [this.footnoteReference(node.identifier, node.label ?? node.identifier)];
      case 'image':
      case 'imageReference':
        this.ctx.report('unsupported_markdown', `images inside headings or tables are not embedded: ${node.alt ?? ''}`);
        return [run(`[${node.alt ?? ''}]`)];
      case 'html':
        if (/^<br\s*\/?>$/i.test(node.value.trim())) return [new TextRun({ break: 1 })];
        this.ctx.report('unsupported_markdown', `inline HTML is not rendered: ${truncate(node.value)}`);
        return [];
      default:
        return [run(plainText(node))];
    }
  }

  private link(url: string, children: readonly PhrasingContent[], format: Format): ParagraphChild[] {
    if (!/^(https?:|mailto:)/i.test(url)) return this.inline(children, format);
    return [new ExternalHyperlink({ link: url, children: this.inline(children, { ...format, hyperlink: true }) })];
  }

  /** Each reference gets a Word footnote of its own (Word numbers notes by reference, not by definition). */
  private footnoteReference(identifier: string, label: string): ParagraphChild {
    const definition = this.footnoteDefinitions.get(identifier);
    if (!definition) {
      this.ctx.report('unsupported_markdown', `footnote [^${label}] is referenced but not defined`);
      return new TextRun(`[^${label}]`);
    }
    const id = this.ctx.footnoteId();
    this.ctx.footnotes[String(id)] = { children: this.footnoteParagraphs(definition.children) };
    return new FootnoteReferenceRun(id);
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
