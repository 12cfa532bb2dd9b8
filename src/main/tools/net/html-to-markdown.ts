// Web pages as Markdown for the model: node-html-markdown does the conversion (headings, lists,
// GFM tables, code); this module adds what a fetched page needs: its title, links and images made
// absolute against the page's URL (a relative link is useless out of context), and links with
// script schemes reduced to their text.
import { NodeHtmlMarkdown, type TranslatorConfig, type TranslatorConfigFactory, type TranslatorConfigObject } from 'node-html-markdown';
import { splitHtml } from './html-chunks';

/** Elements with no reading content. */
const IGNORED = ['script', 'style', 'noscript', 'template', 'svg', 'canvas', 'iframe', 'object', 'embed', 'button', 'select', 'input', 'textarea'];

type TranslatorEntry = TranslatorConfig | TranslatorConfigFactory;
type TranslatorContext = Parameters<TranslatorConfigFactory>[0];

const defaults = new NodeHtmlMarkdown();

function defaultTranslator(collection: 'translators' | 'aTagTranslators', tag: string): TranslatorEntry {
  const found = defaults[collection].get(tag);
  if (found === undefined) throw new Error(`node-html-markdown has no default translator for <${tag}>`);
  return found;
}

/** An absolute http(s)/mailto URL for `href`, or null when it has another scheme (javascript:, data:, ...). */
export function absoluteUrl(href: string, base: string): string | null {
  try {
    const url = new URL(href.trim(), base);
    return ['http:', 'https:', 'mailto:'].includes(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * The part of a parsed element this module touches. The library types its nodes as a union with the
 * DOM's HTMLElement, which does not exist in the main process's types; node-html-parser's elements
 * (what it actually passes in Node) have these methods.
 */
interface AttributeNode {
  getAttribute(name: string): string | null | undefined;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
}

/** Rewrites one URL attribute in place before the library's own translator for the tag runs. */
function withAbsolute(attr: string, base: string, inner: TranslatorEntry): TranslatorConfigFactory {
  return (ctx: TranslatorContext) => {
    const node = ctx.node as unknown as AttributeNode;
    const value = node.getAttribute(attr);
    if (value) {
      const abs = absoluteUrl(value, base);
      if (abs === null) node.removeAttribute(attr);
      else node.setAttribute(attr, abs);
    }
    return typeof inner === 'function' ? inner(ctx) : inner;
  };
}

function decodeText(html: string): string {
  return NodeHtmlMarkdown.translate(html).replace(/\\([\\`*_{}[\]()#+\-.!|>~])/gu, '$1').replace(/\s+/gu, ' ').trim();
}

export function htmlTitle(html: string): string | null {
  const match = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/iu.exec(html);
  const title = match?.[1] !== undefined ? decodeText(match[1]) : '';
  return title === '' ? null : title;
}

function createConverter(baseUrl: string): NodeHtmlMarkdown {
  const custom: TranslatorConfigObject = {
    a: withAbsolute('href', baseUrl, defaultTranslator('translators', 'a')),
    img: withAbsolute('src', baseUrl, defaultTranslator('translators', 'img')),
  };
  const converter = new NodeHtmlMarkdown({ ignore: IGNORED, maxConsecutiveNewlines: 2 }, custom);
  // An image inside a link is translated by the link's own collection.
  converter.aTagTranslators.set('img', withAbsolute('src', baseUrl, defaultTranslator('aTagTranslators', 'img')));
  return converter;
}

/** Pieces this size convert in tens of milliseconds; the converter's quadratic cost stays inside one. */
export const HTML_PIECE_CHARS = 32_000;

export interface PageMarkdown {
  title: string | null;
  markdown: string;
  /** False when conversion stopped at `maxChars` of markdown: the page has more. */
  complete: boolean;
}

/**
 * The page as markdown, converted piece by piece (see html-chunks.ts) and stopped once `maxChars`
 * of markdown exist: the model never sees more than that, so converting the rest is wasted time.
 */
export function htmlToMarkdown(html: string, baseUrl: string, maxChars = Number.POSITIVE_INFINITY): PageMarkdown {
  const converter = createConverter(baseUrl);
  const parts: string[] = [];
  let length = 0;
  let complete = true;
  for (const piece of splitHtml(html, HTML_PIECE_CHARS)) {
    if (length >= maxChars) {
      complete = false;
      break;
    }
    const markdown = converter.translate(piece).trim();
    if (markdown === '') continue;
    parts.push(markdown);
    length += markdown.length + 2;
  }
  return { title: htmlTitle(html), markdown: parts.join('\n\n'), complete };
}
