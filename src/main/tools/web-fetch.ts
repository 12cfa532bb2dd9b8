// web_fetch {url}: reads a public web page for the model, as Markdown. The network rules (public
// addresses only, pinned connections, checked redirects, size and time limits) are in net/safe-fetch.
import { TextDecoder } from 'node:util';
import { z } from 'zod';
import { addressRefusal, isIpLiteral } from '../net/address-policy';
import { convertHtmlInWorker } from './net/html-in-worker';
import { checkUrl, type FetchedResponse, safeFetch, type SafeFetchOptions } from './net/safe-fetch';
import { looksBinary } from './text';
import { NO_PATHS, type Tool, ToolError, type ToolRisk } from './types';
import { wrapUntrusted } from './untrusted';

export const WEB_FETCH_MAX_CHARS = 100_000;

const parameters = z.object({
  url: z.string().min(1).max(4000).describe('An http:// or https:// URL of a public page.'),
});

export type WebFetchToolOptions = Omit<SafeFetchOptions, 'signal' | 'acceptContentType'>;

type BodyKind = 'html' | 'text' | 'json' | 'xml';

/** Which reader a media type gets; null for types that are not fetched (PDFs, images, archives...). */
export function bodyKind(mediaType: string): BodyKind | null {
  if (mediaType === 'text/html' || mediaType === 'application/xhtml+xml') return 'html';
  if (mediaType === 'text/plain' || mediaType === 'text/markdown' || mediaType === 'text/x-markdown' || mediaType === '') return 'text';
  if (mediaType === 'application/json' || /^application\/[\w.-]+\+json$/u.test(mediaType)) return 'json';
  if (mediaType === 'application/xml' || mediaType === 'text/xml' || /^application\/[\w.-]+\+xml$/u.test(mediaType)) return 'xml';
  return null;
}

function decoderFor(label: string | null): TextDecoder {
  try {
    return new TextDecoder(label ?? 'utf-8');
  } catch {
    return new TextDecoder('utf-8');
  }
}

/** The body as text: the header's charset, else (for HTML) a <meta> charset, else UTF-8. */
function decodeBody(res: FetchedResponse, kind: BodyKind): string {
  let charset = res.charset;
  if (charset === null && kind === 'html') {
    const head = res.body.subarray(0, 4096).toString('latin1');
    charset = /<meta[^>]+charset\s*=\s*["']?([\w-]+)/iu.exec(head)?.[1]?.toLowerCase() ?? null;
  }
  return decoderFor(charset).decode(res.body);
}

function fenced(lang: string, text: string): string {
  const longest = Math.max(2, ...Array.from(text.matchAll(/`+/gu), (m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${text.replace(/\n?$/u, '\n')}${fence}`;
}

function fallbackTitle(url: string): string {
  const parsed = new URL(url);
  const last = parsed.pathname.split('/').filter(Boolean).pop();
  return last ? decodeURIComponent(last) : parsed.hostname;
}

interface Converted {
  title: string;
  markdown: string;
  /** False when the conversion stopped early because the page is longer than the model gets. */
  complete?: boolean;
}

async function toMarkdown(res: FetchedResponse, signal: AbortSignal): Promise<Converted> {
  if (res.mediaType === '' && looksBinary(res.body)) throw new ToolError(`${res.url} sent binary data without a content type; it is not fetched.`);
  const kind = bodyKind(res.mediaType) ?? 'text';
  const text = decodeBody(res, kind);
  switch (kind) {
    case 'html': {
      // Off the main thread and time-limited: some pages take the converter minutes.
      const { title, markdown, complete } = await convertHtmlInWorker(text, res.url, { maxChars: WEB_FETCH_MAX_CHARS, signal });
      return { title: title ?? fallbackTitle(res.url), markdown, complete };
    }
    case 'json': {
      let pretty = text;
      try {
        pretty = JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        // Served as JSON but is not: show it as it came.
      }
      return { title: fallbackTitle(res.url), markdown: fenced('json', pretty) };
    }
    case 'xml':
      return { title: fallbackTitle(res.url), markdown: fenced('xml', text.trim()) };
    case 'text':
      return { title: fallbackTitle(res.url), markdown: text.trim() };
  }
}

function cap(text: string, complete: boolean): string {
  if (text.length <= WEB_FETCH_MAX_CHARS && complete) return text;
  if (text.length <= WEB_FETCH_MAX_CHARS) return `${text}\n\n[… the page is longer; only its beginning was converted]`;
  const of = complete ? `of ${text.length} characters` : 'characters; the page is longer';
  return `${text.slice(0, WEB_FETCH_MAX_CHARS)}\n\n[… cut at ${WEB_FETCH_MAX_CHARS} ${of}]`;
}

/** What can be refused without the network: the scheme, credentials, and literal IP addresses. */
function staticRefusal(raw: string, options: WebFetchToolOptions): string | null {
  try {
    const url = checkUrl(raw);
    const host = url.hostname.replace(/^\[|\]$/gu, '');
    const port = url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    // The same policy the fetch applies (a test's narrowed one when given), decided before asking anyone.
    if (options.isAllowedAddress?.(host, port) === true) return null;
    if (isIpLiteral(host)) {
      const why = addressRefusal(host);
      if (why !== null) return `${host} is ${why}; only public Internet addresses can be fetched`;
    }
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

export function createWebFetchTool(options: WebFetchToolOptions = {}): Tool<typeof parameters> {
  return {
    name: 'web_fetch',
    description:
      'Fetch a public web page (http/https) and return it as Markdown inside an untrusted-content marker: "# <title>", "Source: <final URL>", then the text ' +
      '(links made absolute; at most 100,000 characters). HTML, plain text, Markdown, JSON and XML only (not PDFs or images); ' +
      'pages up to 5 MB, 20 s. Local and private-network addresses are refused.',
    parameters,
    traits: { kind: 'fetch', runsCode: false, network: true, paths: NO_PATHS, writesArtifacts: false, endsTurn: false },
    assess(args): ToolRisk {
      const blocked = staticRefusal(args.url, options);
      return blocked === null ? { risk: 'standard', detail: args.url } : { risk: 'standard', detail: args.url, blocked };
    },
    async execute(args, ctx) {
      const res = await safeFetch(args.url, ctx.outbound, { ...options, signal: ctx.signal, acceptContentType: (type) => bodyKind(type) !== null });
      const { title, markdown, complete = true } = await toMarkdown(res, ctx.signal);
      const page = cap(`# ${title}\nSource: ${res.url}\n\n${markdown}`, complete);
      // The page (its title too) is the site's words, not the person's: marked for the model as data.
      if (res.status >= 400) {
        return { content: `HTTP ${res.status} ${res.statusText} from ${res.url}\n\n${wrapUntrusted(res.url, page.slice(0, 2000))}`, isError: true };
      }
      return { content: wrapUntrusted(res.url, page) };
    },
  };
}
