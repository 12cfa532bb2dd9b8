// The built-in tool catalog: every tool Folio itself offers, listed once, each declaring its traits.
// A run's whole tool set (these, the task's MCP tools and the skill tools) is put together in
// assembly/tool-set.ts; nothing keeps a list of tool names: the approval policy, the loop, the UI
// (through run events) and the sandbox read the traits.
import type { Executor } from '../sandbox/executor';
import { defaultExecutor } from '../sandbox/select-executor';
import type { Skill } from '../skills/skill-registry';
import { editTool } from './edit';
import { createExtractFiguresTool } from './extract-figures';
import { globTool } from './glob';
import { grepTool } from './grep';
import { createLoadSkillTool } from './load-skill';
import { createOcrTool, type OcrToolOptions } from './ocr';
import { proposeOutlineTool } from './propose-outline';
import { proposePlanTool } from './propose-plan';
import { readTool } from './read';
import { ToolRegistry } from './registry';
import { createRenderDeckTool } from './render-deck-tool';
import { createRenderDocumentTool } from './render-document-tool';
import { pythonFor, type PythonRuntime } from './python-runtime';
import { reviseDocumentTool } from './revise-document-tool';
import { createRunPythonTool } from './run-python';
import { createRunScriptTool } from './run-script';
import { createShellTool } from './shell/tool';
import { createSkillCreateTool } from './skill-create';
import { type Tool } from './types';
import { createWebFetchTool, type WebFetchToolOptions } from './web-fetch';
import { createWebSearchTool, type WebSearchToolOptions } from './web-search';
import { writeTool } from './write';
import { writeSpreadsheetTool } from './write-spreadsheet';
import { searchLibraryTool } from './search-library';

export interface CatalogOptions {
  /** Names of stored keys that must never reach a command's or script's environment. */
  secretNames?: () => readonly string[];
  /** Folders commands, scripts and LibreOffice must not see (Folio's data folder), where the sandbox works. */
  hiddenPaths?: readonly string[];
  /** What runs shell commands and scripts (default: the one FOLIO_EXECUTOR chooses, see sandbox/select-executor.ts). */
  executor?: Executor;
  /** `<data>/themes` for render_deck. */
  themesDir?: string;
  /** `<data>/templates` (imported .pptx/.potx) for render_deck. */
  templatesDir?: string;
  /** The skills load_skill offers (read when called: skills can change mid-task). */
  skills?: () => Skill[];
  /** How ocr picks its vision profile and reports usage; without it ocr says no profile can read images. */
  ocr?: OcrToolOptions;
  /** The search backend web_search asks (read at each call); without it web_search says search is not set up. */
  search?: WebSearchToolOptions['config'];
  /** Test seam: web_fetch's network policy (tests let it reach their local server). */
  webFetch?: WebFetchToolOptions;
  /** `<data>/skills`, where skill_create saves an approved skill; without it there is no skill_create. */
  skillsUserDir?: string;
  /** false: the task sees no library with files, so search_library is not offered. Default: listed. */
  searchLibrary?: boolean;
  /** Test seam: this machine's Python (default: probed once); without one, run_python is not offered. */
  python?: () => PythonRuntime;
}

export function toolCatalog(options: CatalogOptions = {}): Tool[] {
  const code = {
    secretNames: options.secretNames ?? (() => []),
    hiddenPaths: options.hiddenPaths ?? [],
    ...(options.executor ? { executor: options.executor } : {}),
  };
  const tools: Tool[] = [
    readTool,
    globTool,
    grepTool,
    createLoadSkillTool(options.skills ?? (() => [])),
    createOcrTool(options.ocr ?? { pickVisionProfile: () => null }),
    writeTool,
    writeSpreadsheetTool,
    editTool,
    createRenderDeckTool({
      hiddenPaths: code.hiddenPaths,
      ...(options.themesDir ? { themesDir: options.themesDir } : {}),
      ...(options.templatesDir ? { templatesDir: options.templatesDir } : {}),
    }),
    createRenderDocumentTool({ hiddenPaths: code.hiddenPaths }),
    reviseDocumentTool,
    createShellTool(code),
    createRunScriptTool(code),
    ...(pythonFor(options.executor ?? defaultExecutor(), options.python).available ? [createRunPythonTool({ ...code, ...(options.python ? { python: options.python } : {}) })] : []),
    createWebFetchTool(options.webFetch),
    createExtractFiguresTool(),
    proposeOutlineTool,
    proposePlanTool,
    createWebSearchTool({ config: options.search ?? (() => null) }),
    ...(options.searchLibrary === false ? [] : [searchLibraryTool]),
  ];
  if (options.skillsUserDir) tools.push(createSkillCreateTool({ userDir: options.skillsUserDir, skills: options.skills ?? (() => []) }));
  return tools;
}

/** A registry holding the whole catalog. */
export function createToolRegistry(options: CatalogOptions = {}): ToolRegistry {
  const registry = new ToolRegistry();
  for (const tool of toolCatalog(options)) registry.register(tool);
  return registry;
}
