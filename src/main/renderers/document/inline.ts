// Text inside a block → docx runs: bold and emphasis split by script (CJK never gets synthetic bold or
// slant), links, cross-references as REF fields, citations as the style's numbers, and footnotes.
import {
  EmphasisMarkType,
  ExternalHyperlink,
  FootnoteReferenceRun,
  Paragraph,
  type ParagraphChild,
  SimpleField,
  TextRun,
} from 'docx';
import { type BlockContent, type Definition, type DefinitionContent, type FootnoteDefinition, type PhrasingContent } from 'mdast';
import { CROSS_REFERENCE, referenceKind, referencedIds } from '../../../shared/specs/document-captions';
import { CITATION, citationLabel, citedKeys } from '../../../shared/specs/document-citations';
import { withBreakOpportunities, withUrlBreaks } from './break-opportunities';
import { type RenderContext } from './context';
import { fontSet } from './fonts';
import { plainText } from './mdast-text';
import { STYLE } from './styles';
import { joinNameHyphens } from './name-hyphens';
import { joinDigitGroups } from './digit-groups';
import { WORD_JOINER } from './name-hyphens';
import { joinSoftBreaks, splitByScript, typesetSpacesBetween } from './text-metrics';

const FOOTNOTE_STYLE = 'FootnoteText';
const UNDEFINED_FOOTNOTE = /\[\^([^\]\s]+)\]/g;
const HAN = /\p{Script=Han}/u;

/**
 * `heading`: bold applies to Latin words only, CJK keeps the heading style's face. `ragged`: the text is set ragged
 * right (the reference list), so its URLs may break but no word is hyphenated.
 */
export type Format = { bold?: boolean; italics?: boolean; strike?: boolean; hyperlink?: boolean; heading?: boolean; ragged?: boolean };
/** The characters printed just before and after a node (its neighbours' or, at a container's edge, the container's). */
type Edges = { before: string; after: string };
const NO_EDGES: Edges = { before: '', after: '' };

export class InlineConverter {
  /** The CJK face of **strong** text: the heading face (黑体), since 宋体 has no bold and synthetic bold smears. */
  private readonly strongFace: string;

  /** The definition maps are the section's, filled before its blocks are converted. */
  constructor(
    private readonly ctx: RenderContext,
    private readonly definitions: ReadonlyMap<string, Definition>,
    private readonly footnoteDefinitions: ReadonlyMap<string, FootnoteDefinition>,
  ) {
    this.strongFace = fontSet('heading', ctx.language).eastAsia;
  }

  inline(nodes: readonly PhrasingContent[], format: Format, edges: Edges = NO_EDGES): ParagraphChild[] {
    return nodes.flatMap((node, i) => {
      const previous = nodes[i - 1];
      const next = nodes[i + 1];
      return this.inlineNode(node, format, {
        before: previous ? ([...plainText(previous)].at(-1) ?? '') : edges.before,
        after: next ? ([...plainText(next)][0] ?? '') : edges.after,
      });
    });
  }

  /**
   * Runs for text in a format, split by script where bold or emphasis differ: CJK text is never given a
   * synthetic bold or slant. **Strong** CJK takes the heading face (黑体), emphasised CJK takes 着重号
   * (`w:em="dot"`, not on punctuation); Latin text is bold or italic as usual.
   */
  runs(raw: string, f: Format): TextRun[] {
    const base = { ...(f.strike ? { strike: true } : {}), ...(f.hyperlink ? { style: 'Hyperlink' } : {}) };
    // Justified Chinese lines are letter-spaced when a whole URL or long word has to move down.
    const text = !this.ctx.isChinese || f.heading ? raw : f.ragged ? withUrlBreaks(raw) : withBreakOpportunities(raw);
    if (!f.bold && !f.italics) return [new TextRun({ ...runText(text), ...base })];
    return splitByScript(text).map(({ text: part, script }) => {
      const latin = script === 'latin';
      return new TextRun({
        ...runText(part),
        ...base,
        ...(f.bold && latin ? { bold: true } : {}),
        ...(f.bold && !latin && !f.heading ? { font: { eastAsia: this.strongFace } } : {}),
        ...(f.italics && latin ? { italics: true } : {}),
        ...(f.italics && script === 'cjk' ? { emphasisMark: { type: EmphasisMarkType.DOT } } : {}),
      });
    });
  }

  /**
   * 着重号 print in Word and WPS, but LibreOffice 7.4 draws none in its PDF (measured: not even for its own ODT
   * `text-emphasize`), and the PDF and the page previews are LibreOffice's: the person is told where.
   */
  private reportEmphasisDots(node: PhrasingContent): void {
    const text = plainText(node);
    if (!HAN.test(text)) return;
    this.ctx.report(
      'emphasis_dots_not_drawn',
      `the 着重号 (emphasis dots) under "${truncate(text)}" print in Word and WPS but not in the PDF or the page previews, which LibreOffice draws without them; make it bold (黑体) if the emphasis must show in the PDF`,
      node,
    );
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
        if (i > 0) out.push(...this.runs(this.ctx.referenceSeparator, format));
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
          this.ctx.report('unknown_citation', `[@${key}] ${why}; it prints as "?"`, node, { params: { key, bibliography: citations.hasBibliography ? 'present' : 'none' } });
        }
        return number ?? null;
      });
      // The mark stays with the word it follows: clreq lets a line start with an opening bracket, so "[3]" alone
      // would go down to the next line's start, away from what it cites.
      out.push(new TextRun({ text: `${WORD_JOINER}${citationLabel(numbers, citations.look)}`, ...(citations.look.superscript ? { superScript: true } : {}) }));
      at = index + match[0].length;
    }
    if (at < text.length) out.push(...this.runs(text.slice(at), format));
    return out;
  }

  private crossReference(id: string, node: PhrasingContent): ParagraphChild {
    const label = this.ctx.referenceLabel(id);
    if (!this.ctx.captions.ids.has(id)) {
      this.ctx.report('unknown_reference', `[@${id}] refers to no ${referenceKind(id) === 'table' ? 'captioned table' : 'figure'} with that id; it prints as "${label}"`, node, { params: { id, label } });
      return new TextRun(label);
    }
    // A REF field to the caption's bookmark: Word keeps it right when tables move; the cached text is what
    // every other reader shows.
    return new SimpleField(`REF ${this.ctx.captionBookmark(id)} \\h`, label);
  }

  private inlineNode(node: PhrasingContent, format: Format, edges: Edges): ParagraphChild[] {
    const run = (text: string, extra: Format = {}): TextRun[] => this.runs(text, { ...format, ...extra });
    switch (node.type) {
      case 'text': {
        const text = joinSoftBreaks(node.value);
        return this.textRuns(this.ctx.isChinese ? typesetSpacesBetween(text, edges.before, edges.after) : text, format, node);
      }
      case 'strong':
        return this.inline(node.children, { ...format, bold: true }, edges);
      case 'emphasis':
        if (!format.heading) this.reportEmphasisDots(node);
        return this.inline(node.children, { ...format, italics: true }, edges);
      case 'delete':
        return this.inline(node.children, { ...format, strike: true }, edges);
      case 'inlineCode':
        return [new TextRun({ text: node.value, style: STYLE.inlineCode, ...(format.bold ? { bold: true } : {}) })];
      case 'break':
        return [new TextRun({ break: 1 })];
      case 'link':
        return this.link(node.url, node.children, format, edges);
      case 'linkReference': {
        const definition = this.definitions.get(node.identifier);
        return definition ? this.link(definition.url, node.children, format, edges) : this.inline(node.children, format, edges);
      }
      case 'footnoteReference':
        return this.footnoteReference(node.identifier, node.label ?? node.identifier, node);
      case 'image':
      case 'imageReference':
        this.ctx.report('unsupported_markdown', `images inside headings or tables are not embedded: ${node.alt ?? ''}`, node, { params: { construct: 'image_inline' } });
        return run(`[${node.alt ?? ''}]`);
      case 'html':
        if (/^<br\s*\/?>$/i.test(node.value.trim())) return [new TextRun({ break: 1 })];
        this.ctx.report('unsupported_markdown', `inline HTML is not rendered: ${truncate(node.value)}`, node, { params: { construct: 'html' } });
        return [];
      default:
        return run(plainText(node));
    }
  }

  private link(url: string, children: readonly PhrasingContent[], format: Format, edges: Edges): ParagraphChild[] {
    if (!/^(https?:|mailto:)/i.test(url)) return this.inline(children, format, edges);
    return [new ExternalHyperlink({ link: url, children: this.inline(children, { ...format, hyperlink: true }, edges) })];
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
    this.ctx.report('undefined_footnote', `footnote [^${label}] is referenced but never defined (add "[^${label}]: text"); the marker is left out`, node, { params: { label } });
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

/** A short, one-line excerpt of source text for a report message. */
export function truncate(text: string, max = 60): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

function runText(text: string): { text: string } {
  return { text: joinDigitGroups(joinNameHyphens(text)) };
}
