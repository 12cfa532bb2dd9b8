// The folder's bibliography (BibTeX or CSL-JSON, as Zotero exports them) formatted by citation-js
// (citeproc-js inside) in a numeric style: GB/T 7714-2015 (config/citation-styles/, CC BY-SA) or Vancouver.
// Entries are listed in the order first cited; what the style needs but an entry lacks is reported.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ValidationError } from '../../../shared/errors';
import { findResourcesDir } from '../../config/app-paths';
import type * as CitationJsCore from '@citation-js/core';
import type { CslItem } from '@citation-js/core';
import type { CitationStyleName, DocumentSpec } from '../../../shared/specs/document';

export type BibEntry = { key: string; type: string; item: CslItem };
export type Bibliography = { files: string[]; entries: Map<string, BibEntry> };
export type FormattedReference = { key: string; number: number; text: string };

const GB_T_7714_TEMPLATE = 'folio-gb-t-7714-2015';
const CSL_FILE = 'gb-t-7714-2015-numeric.csl';
const MAX_BIB_BYTES = 8 * 1024 * 1024;

type CitationJs = typeof CitationJsCore;
let engine: Promise<CitationJs> | undefined;

/** citation-js with the BibTeX and CSL plugins and Folio's GB/T 7714 style, loaded once, at the first use. */
function citationJs(): Promise<CitationJs> {
  engine ??= (async () => {
    const core = await import('@citation-js/core');
    await import('@citation-js/plugin-bibtex');
    await import('@citation-js/plugin-csl');
    const templates = core.plugins.config.get('@csl').templates;
    if (!templates.has(GB_T_7714_TEMPLATE)) templates.add(GB_T_7714_TEMPLATE, readFileSync(cslPath(), 'utf8'));
    return core;
  })();
  return engine;
}

/** Shipped with the app's read-only resources (config/citation-styles/, with its licence). */
function cslPath(): string {
  return join(findResourcesDir(), 'config', 'citation-styles', CSL_FILE);
}

/** The bibliography files document.json names, or every .bib / CSL-JSON file at the folder's top level. */
export function bibliographyFiles(folder: string, spec: DocumentSpec): string[] {
  if (spec.bibliography !== undefined) return Array.isArray(spec.bibliography) ? spec.bibliography : [spec.bibliography];
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => /\.(bib|json)$/iu.test(name) && name !== 'document.json' && !name.startsWith('.'))
    .filter((name) => statSync(join(folder, name)).isFile())
    .filter((name) => name.toLowerCase().endsWith('.bib') || looksLikeCslJson(join(folder, name)))
    .sort();
}

function looksLikeCslJson(path: string): boolean {
  try {
    const data: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return Array.isArray(data) && data.every((item) => typeof item === 'object' && item !== null && 'id' in item && 'type' in item);
  } catch {
    return false;
  }
}

export async function loadBibliography(folder: string, spec: DocumentSpec, extra: readonly CslItem[] = []): Promise<Bibliography> {
  const files = bibliographyFiles(folder, spec);
  const entries = new Map<string, BibEntry>();
  const withExtra = (): Bibliography => {
    for (const item of extra) if (!entries.has(item.id)) entries.set(item.id, { key: item.id, type: item.type, item });
    return { files, entries };
  };
  if (files.length === 0) return withExtra();
  const { Cite } = await citationJs();
  for (const file of files) {
    const path = join(folder, file);
    if (!existsSync(path) || !statSync(path).isFile()) throw new ValidationError(`bibliography: ${file} not found in the document folder`);
    if (statSync(path).size > MAX_BIB_BYTES) throw new ValidationError(`bibliography: ${file} is larger than ${MAX_BIB_BYTES} bytes`);
    const text = readFileSync(path, 'utf8').replace(/^\uFEFF/u, '');
    let items;
    try {
      const json = file.toLowerCase().endsWith('.json');
      items = (json ? new Cite(JSON.parse(text) as unknown) : new Cite(text, { forceType: '@biblatex/text' })).data;
    } catch (err) {
      throw new ValidationError(`bibliography: ${file} could not be read: ${err instanceof Error ? err.message : String(err)}`);
    }
    for (const item of items) {
      const citationKey = item['citation-key'];
      const key = typeof citationKey === 'string' && citationKey !== '' ? citationKey : item.id;
      if (!entries.has(key)) entries.set(key, { key, type: item.type, item: { ...item, id: key } });
    }
  }
  return withExtra();
}

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/u;

function isChineseEntry(item: BibEntry['item']): boolean {
  return CJK.test(`${item.title ?? ''}${item.author?.map((a) => `${a.family ?? ''}${a.literal ?? ''}`).join('') ?? ''}`);
}

/** The cited entries, numbered in order of first citation, as the style writes them (without their number). */
export async function formatReferences(bib: Bibliography, cited: readonly string[], style: CitationStyleName): Promise<FormattedReference[]> {
  const keys = cited.filter((key) => bib.entries.has(key));
  if (keys.length === 0) return [];
  const { Cite } = await citationJs();
  const items = keys.map((key) => bib.entries.get(key)?.item);
  const cite = new Cite(items);
  // citeproc-js lists an unsorted numeric bibliography in the order of the items it is given.
  const out = cite.format('bibliography', {
    format: 'text',
    template: style === 'gb-t-7714-2015' ? GB_T_7714_TEMPLATE : 'vancouver',
    lang: 'en-US',
    asEntryArray: true,
  }) as [string, string][];
  const byKey = new Map(out.map(([id, text]) => [id, text]));
  return keys.map((key, i) => {
    let text = (byKey.get(key) ?? '').trim().replace(/^\[?\d+\]?\.?\s*/u, '');
    const item = bib.entries.get(key)?.item;
    // GB/T 7714: Chinese entries write 等 where English ones write et al.
    if (style === 'gb-t-7714-2015' && item && isChineseEntry(item)) text = text.replace(/, et al\./gu, ', 等.');
    return { key, number: i + 1, text };
  });
}

/** What GB/T 7714 (and any numeric style) needs of each type, by CSL field. */
const REQUIRED: Record<string, string[]> = {
  'article-journal': ['author', 'title', 'container-title', 'issued'],
  'paper-conference': ['author', 'title', 'container-title', 'issued'],
  book: ['author', 'title', 'publisher', 'issued'],
  chapter: ['author', 'title', 'container-title', 'publisher', 'issued'],
  thesis: ['author', 'title', 'publisher', 'issued'],
  report: ['author', 'title', 'publisher', 'issued'],
  webpage: ['title', 'URL', 'accessed'],
  post: ['title', 'URL', 'accessed'],
  'post-weblog': ['title', 'URL', 'accessed'],
};

/** The BibTeX names of CSL fields, for messages a person can act on in their .bib. */
const BIBTEX_NAMES: Record<string, string> = {
  'container-title': 'journal / booktitle',
  issued: 'year',
  publisher: 'publisher / school / institution',
  URL: 'url',
  accessed: 'urldate',
};

export function missingCslFields(entry: BibEntry): string[] {
  const required = REQUIRED[entry.type] ?? ['title', 'issued'];
  return required.filter((field) => {
    const value = entry.item[field];
    if (value === undefined || value === null || value === '') return true;
    return Array.isArray(value) && value.length === 0;
  });
}

/** A CSL field as the .bib names it. */
export const bibtexName = (field: string): string => BIBTEX_NAMES[field] ?? field;
