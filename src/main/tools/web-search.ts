// web_search {query, count?}: asks the search backend the person chose in Settings and returns
// numbered titles, URLs and snippets inside the untrusted-content marker. The backend is read at
// each call (the person may set it up mid-task). With none configured the tool is still offered and
// answers with an error naming the setting: the model can then tell the person what to do, instead
// of a tool list that changes with settings and a model that guesses why it cannot search.
import { z } from 'zod';
import { BACKEND_LABELS } from './search/backends';
import { runSearch, type SearchConfig, type SearchHit } from './search';
import { NO_PATHS, type Tool } from './types';
import { wrapUntrusted } from './untrusted';

export const WEB_SEARCH_DEFAULT_COUNT = 5;
export const WEB_SEARCH_MAX_COUNT = 10;
const TITLE_MAX = 200;
const SNIPPET_MAX = 500;

const parameters = z.object({
  query: z.string().trim().min(1).max(400).describe('What to search the web for.'),
  count: z.number().int().min(1).max(WEB_SEARCH_MAX_COUNT).optional().describe(`How many results (default ${WEB_SEARCH_DEFAULT_COUNT}).`),
});

export interface WebSearchToolOptions {
  /** The configured backend with its key, or null when web search is not set up. Read at each call. */
  config: () => SearchConfig | null | Promise<SearchConfig | null>;
  timeoutMs?: number;
}

export const NOT_CONFIGURED_MESSAGE =
  'Web search is not set up. The person must choose a search backend (SearXNG, Brave, Tavily or Bing) and give its URL or key ' +
  'in Settings → Web search. Tell them so; do not call web_search again in this task until they have.';

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Numbered results, one block each: title, URL, snippet. */
export function formatHits(hits: SearchHit[]): string {
  return hits
    .map((h, i) => {
      const lines = [`${i + 1}. ${clip(h.title, TITLE_MAX)}`, `   ${h.url}`];
      if (h.snippet) lines.push(`   ${clip(h.snippet, SNIPPET_MAX)}`);
      return lines.join('\n');
    })
    .join('\n\n');
}

export function createWebSearchTool(options: WebSearchToolOptions): Tool<typeof parameters> {
  return {
    name: 'web_search',
    description:
      'Search the web with the search engine the person configured in Settings. Returns numbered results (title, URL, snippet) ' +
      `marked as untrusted content; up to ${WEB_SEARCH_MAX_COUNT}. Read a result in full with web_fetch, and cite the URLs you use.`,
    parameters,
    traits: { kind: 'fetch', runsCode: false, network: true, paths: NO_PATHS, writesArtifacts: false, endsTurn: false },
    assess(args) {
      return { risk: 'standard', detail: args.query };
    },
    async execute(args, ctx) {
      const config = await options.config();
      if (config === null) return { content: NOT_CONFIGURED_MESSAGE, isError: true };
      const count = args.count ?? WEB_SEARCH_DEFAULT_COUNT;
      const hits = await runSearch(config, args.query, count, { outbound: ctx.outbound, signal: ctx.signal, timeoutMs: options.timeoutMs });
      const via = BACKEND_LABELS[config.backend];
      if (hits.length === 0) return { content: `No results from ${via} for "${args.query}". Try other words.` };
      const heading = `${hits.length} result${hits.length === 1 ? '' : 's'} from ${via} for "${args.query}":`;
      return { content: `${heading}\n${wrapUntrusted(`web_search: ${args.query}`, formatHits(hits))}\nCite the URLs you use; read a page with web_fetch.` };
    },
  };
}
