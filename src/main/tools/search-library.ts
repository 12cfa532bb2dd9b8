// search_library: ranked search over the libraries the task sees (its project's and the
// personal one), answered with the file, page and snippet of each hit and how to cite it.
import { wrapUntrusted } from './untrusted';
import { z } from 'zod';
import type { LibraryHit } from '../../shared/contract/projects';
import { libraryCitationKey } from '../../shared/specs/document-citations';
import { NO_PATHS, type Tool, ToolError, type ToolTraits } from './types';

const DEFAULT_LIMIT = 8;
const MAX_LIMIT = 20;

const parameters = z.object({
  query: z.string().trim().min(1).max(500).describe('Words to find: Chinese or English, a phrase or a few key terms (at least 3 characters match best).'),
  limit: z.number().int().min(1).max(MAX_LIMIT).optional().describe(`How many hits (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT}).`),
});

const traits: ToolTraits = { kind: 'read', runsCode: false, network: false, paths: NO_PATHS, writesArtifacts: false, endsTurn: false };

const HAN = /\p{Script=Han}/u;

/** Only a file's name goes into a citation; the task path is for reading it. */
function fileName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** "来源：file.pdf 第 N 页" for a Chinese query, "Source: file.pdf, p. N" otherwise. */
export function citation(hit: Pick<LibraryHit, 'path' | 'page'>, chinese: boolean): string {
  return chinese ? `来源：${fileName(hit.path)} 第 ${hit.page} 页` : `Source: ${fileName(hit.path)}, p. ${hit.page}`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/gu, ' ').trim();
}

export const searchLibraryTool: Tool<typeof parameters> = {
  name: 'search_library',
  description:
    "Search the project's library and the personal library (the person's papers, proposals and guidelines, extracted page by page): " +
    'ranked full-text search that works for Chinese and English. Each hit names the file (library/...), the page and a snippet; ' +
    'read the page with read path=<file> pages=<N> before relying on it, and cite what you use as "来源：file.pdf 第 N 页" (Chinese) ' +
    'or "Source: file.pdf, p. N" (English); in a document folder for render_document, cite it as the hit\'s [@lib:…] key ' +
    '(its reference entry is made from the file; an entry with the same key in the folder\'s .bib, with authors and year, wins).',
  parameters,
  traits,
  async execute(args, ctx) {
    if (!ctx.library) throw new ToolError('This task has no library to search: only tasks in a project, or with files in the personal library, have one.');
    const result = await ctx.library.search(args.query, args.limit ?? DEFAULT_LIMIT, ctx.signal);
    const notes = result.note ? [`(${result.note})`] : [];
    if (result.hits.length === 0) return { content: [`No library pages match ${JSON.stringify(args.query)}. Try other words, or fewer.`, ...notes].join('\n') };
    const chinese = HAN.test(args.query);
    const rows = result.hits.map(
      (h, i) => `${i + 1}. ${h.task_path} — page ${h.page}\n   ${oneLine(h.snippet)}\n   cite: ${citation(h, chinese)}; in a document: [@${libraryCitationKey(h.path)}]`,
    );
    const first = result.hits[0];
    const how = first ? `Read a hit's page with read path="${first.task_path}" pages="${first.page}". Cite each fact you use at its end.` : '';
    // Snippets are the library files' own text: marked like a search result from the web.
    return { content: [wrapUntrusted(`search_library: ${args.query}`, rows.join('\n')), how, ...notes].filter(Boolean).join('\n\n') };
  },
};
