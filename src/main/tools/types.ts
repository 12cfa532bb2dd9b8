// The tool contract (after gemini-cli's tool invocations): a tool declares its parameters as zod and
// its traits (what it may do: the approval policy, the UI and the sandbox read them, never a list of
// names), and executes with a context and an abort signal.
import type { z } from 'zod';
import type { ApprovalReason, FileKind, ProgressOf, RunEventBody, ToolKind } from '../../shared/contract';
import type { ProgramFacts, ToolFailure } from '../../shared/contract/tool-calls';
import { join } from 'node:path';
import { TASK_SUBFOLDERS } from '../workspace/layout';
import { resolveTaskPath, taskFolders, type Access, type TaskPath } from '../workspace/task-paths';
import type { LibrarySearchResult } from '../../shared/contract/projects';
import type { OutboundAudit } from '../net/outbound-audit';
import { isLibraryPath, LIBRARY_READ_ONLY_MESSAGE, type LibraryScope } from '../workspace/library-paths';

export interface ToolContext {
  /** Absolute path of the folder the tool is confined to (the task folder, or a coding task's repo). */
  root: string;
  /**
   * The task's own folder when `root` is elsewhere (a coding task's project folder): its `source/`
   * and `artifacts/` stay reachable under those names.
   */
  taskRoot?: string;
  taskId: string;
  runId: string;
  callId: string;
  signal: AbortSignal;
  /** Reports progress of long work (rendering, extraction) to the UI: the step, not words (each client words it). */
  progress?: (of: ProgressOf, done: number, total: number | null) => void;
  /** The task's "allow network for commands" switch; absent, sandboxed commands have no network. */
  network?: NetworkSwitch;
  /** Passes on the events of nested work (a skill running as a sub-agent); the loop yields them in order. */
  emit?: (event: RunEventBody) => void;
  /** The agent skills on the chain that led to this call, outermost first; absent or empty at the task's own level. */
  skillChain?: readonly string[];
  /** The libraries the task sees (its project's and the personal one), read-only; absent: none. */
  library?: LibraryPort;
  /** Who the call's requests leaving the service are charged to (the team service's audit rows); null on the desktop. */
  outbound: OutboundAudit | null;
}

/** One file of a library as a task sees it. */
export interface LibraryDoc {
  scope: LibraryScope;
  /** Inside the library, e.g. `papers/a.pdf`. */
  path: string;
  /** `library/project/papers/a.pdf`. */
  taskPath: string;
  status: 'pending' | 'indexing' | 'ok' | 'scanned' | 'image' | 'error';
  pages: number | null;
  message: string | null;
}

/**
 * What tools may do with the libraries (implemented by the service over the store: tools never
 * import it). Paths are scope + path inside the library, parsed once by workspace/library-paths.
 */
export interface LibraryPort {
  /** The files of one library the task sees; empty when it has none (or the task has no project). */
  list(scope: LibraryScope): Promise<LibraryDoc[]>;
  /** A file and its indexed text as page-marked markdown (empty until indexed); null: no such file. */
  read(scope: LibraryScope, path: string): Promise<{ doc: LibraryDoc; markdown: string } | null>;
  /** Ranked search over every library the task sees. */
  search(query: string, limit: number, signal: AbortSignal): Promise<LibrarySearchResult>;
}

export interface NetworkSwitch {
  /** Read from the store at each call: the person may flip the switch while a run goes on. */
  allowed(): Promise<boolean>;
  /** Turns the network on for the task's commands (the person approved a command that needs it). */
  allow(): Promise<void>;
}

export interface ToolResult {
  /** Text for the model (the loop caps it at 16,000 characters). */
  content: string;
  isError?: boolean;
  /** Files the tool created or changed, relative to root (recorded in the files table). */
  touched?: string[];
  /** A run event the loop emits after the result, so the UI updates without knowing tool names. */
  announce?: ToolAnnouncement;
  /** Why an error result failed, for the person's screen (absent: the loop says `failed`). */
  failure?: ToolFailure;
  /** A program's run: where its own output ends and Folio's notes for the model begin. */
  program?: ProgramFacts;
}

/** The run events a tool may announce with its result. */
export type ToolAnnouncement = Extract<RunEventBody, { type: 'outline_proposed' }>;

/** What the approval step needs to show a person before a risky call runs. */
export interface ToolRisk {
  risk: 'standard' | 'destructive';
  /** Human-readable detail: the full command, a diff for edits, the URL. */
  detail: string | null;
  /** A blocked call never runs; its reason is returned to the model. */
  blocked?: string;
  /** Why the call asks, for the approval card (in the person's language there). */
  reasons?: ApprovalReason[];
}

/** What a tool may do. Read by the approval policy, the loop, the UI (through run events) and the sandbox. */
export interface ToolTraits {
  /** The kind of action: read-only calls run in parallel and never ask; the rest follow the task's approval mode. */
  kind: ToolKind;
  /**
   * Runs code the model wrote (commands, scripts): asks in every mode, and "Allow for this task"
   * covers only the exact command (`grantScope`), never the whole tool.
   */
  runsCode: boolean;
  /** Reaches the network. */
  network: boolean;
  /** The task areas the tool's path arguments may name, per access. No tool may write source/. */
  paths: { read: readonly FileKind[]; write: readonly Exclude<FileKind, 'source'>[] };
  /** A successful call leaves a new artifact (a deck or document) the UI brings into view. */
  writesArtifacts: boolean;
  /**
   * A successful call hands the turn to the person (propose_outline: the outline waits for their
   * edits and approval): the run ends after this step's calls instead of asking the model again.
   * The call itself never asks for approval: what it puts before the person is the question.
   */
  endsTurn: boolean;
  /**
   * The call hands its work to a nested agent whose own calls ask for approval as at top level
   * (a skill run as a sub-agent): asking for the call itself would ask twice.
   */
  delegates?: boolean;
  /** Asks the person in every approval mode, whatever was granted (skill_create: a new skill is theirs to accept). */
  alwaysAsks?: boolean;
}

/** The scope of an approved outline's or plan's grant to the file-writing tools: their writes under work/ only. */
export const WORK_AREA_SCOPE = 'work/';

/** Every area, for tools that read anywhere in the task. */
export const ALL_AREAS: readonly FileKind[] = ['source', 'work', 'artifact'];
export const NO_PATHS: ToolTraits['paths'] = { read: [], write: [] };

/** What a grant scope may look at: the folder the call runs in (to bind the grant to the files it runs). */
export type GrantContext = Pick<ToolContext, 'root'>;

export interface Tool<P extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  parameters: P;
  /**
   * The parameters' JSON Schema as sent to the provider, when it does not come from `parameters`
   * (an MCP server's tool: the server's own schema; `parameters` then only checks for an object).
   */
  jsonSchema?: Record<string, unknown>;
  traits: ToolTraits;
  /** Assess a call before it runs (classification, diffs). Optional: default is standard risk. */
  assess?(args: z.output<P>, ctx: Omit<ToolContext, 'signal' | 'progress'>): Promise<ToolRisk> | ToolRisk;
  /**
   * What "Allow for this task" covers for this call; required in effect for tools that run code
   * (without it they are never granted). Absent for other tools: the grant covers the tool.
   */
  grantScope?(args: z.output<P>, ctx?: GrantContext): string;
  /**
   * What a yes to this call also allows for the rest of the task, as "Allow for this task" grants
   * (an approved plan: the writes under work/ and the render it leads to). Shown and revocable with
   * the task's other grants. Only for a call that is itself the question (`alwaysAsks`).
   */
  approvalGrants?: readonly { tool: string; scope: string }[];
  execute(args: z.output<P>, ctx: ToolContext): Promise<ToolResult>;
}

/**
 * Resolves a path argument of `tool` with the one task-path resolver, within the areas the tool
 * declares for this access. Throws PathEscapeError (or `forbidden` for undeclared areas and source/ writes).
 */
export function resolveToolPath(ctx: Pick<ToolContext, 'root' | 'taskRoot'>, traits: ToolTraits, relPath: string, access: Access): TaskPath {
  // The library is shared by the project's tasks: no tool writes there (read and grep read it through the port).
  if (access === 'write' && isLibraryPath(relPath)) throw new ToolNotAllowedError(LIBRARY_READ_ONLY_MESSAGE, relPath);
  return resolveTaskPath(taskFolders(ctx), relPath, { access, areas: traits.paths[access] });
}

/**
 * The task's own `source/` (the person's originals), wherever the tool's root is: code-running tools
 * get it read-only inside the sandbox, as the file tools do.
 */
export function sourceFolder(ctx: Pick<ToolContext, 'root' | 'taskRoot'>): string {
  return join(taskFolders(ctx).task, TASK_SUBFOLDERS.source);
}

/**
 * Tool failures the model should see as data (not crashes): bad paths, no match, etc. The message is
 * the model's; `failure` is what the person's screen says (in their language), set by the subclasses.
 */
export class ToolError extends Error {
  readonly failure: ToolFailure;
  constructor(message: string, failure: ToolFailure = { kind: 'failed' }) {
    super(message);
    this.name = 'ToolError';
    this.failure = failure;
  }
}

/** The file or folder the call names does not exist (`path` as the model named it). */
export class ToolFileNotFoundError extends ToolError {
  constructor(path: string, message: string) {
    super(message, { kind: 'not_found', path });
    this.name = 'ToolFileNotFoundError';
  }
}

/** A file, page or answer too large for the tool to take. */
export class ToolTooLargeError extends ToolError {
  constructor(message: string, path?: string) {
    super(message, { kind: 'too_large', ...(path === undefined ? {} : { path }) });
    this.name = 'ToolTooLargeError';
  }
}

/** The tool's own time limit ran out and its work was stopped. */
export class ToolTimeoutError extends ToolError {
  constructor(seconds: number, message: string) {
    super(message, { kind: 'timed_out', seconds });
    this.name = 'ToolTimeoutError';
  }
}

/** Folio's rules refused the request before it left (a private address, a scheme other than http). */
export class NetworkRefusedError extends ToolError {
  constructor(message: string) {
    super(message, { kind: 'network_refused' });
    this.name = 'NetworkRefusedError';
  }
}

/** The address could not be reached (no such host, no answer, the connection broke). */
export class NetworkUnreachableError extends ToolError {
  constructor(message: string) {
    super(message, { kind: 'network_unreachable' });
    this.name = 'NetworkUnreachableError';
  }
}

/** A tool refused to write where the task keeps what is not Folio's to change (the libraries, an artifact). */
export class ToolNotAllowedError extends ToolError {
  constructor(message: string, path?: string) {
    super(message, { kind: 'not_allowed', ...(path === undefined ? {} : { path }) });
    this.name = 'ToolNotAllowedError';
  }
}
