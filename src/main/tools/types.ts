// The tool contract (after gemini-cli's tool invocations): a tool declares its parameters as zod,
// its kind (which drives approvals), and executes with a context and an abort signal.
import type { z } from 'zod';
import type { ToolKind } from '../../shared/contract';

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
  /** Reports progress of long work (rendering, extraction) to the UI. */
  progress?: (label: string, done: number, total: number | null) => void;
  /** The task's "allow network for commands" switch; absent, sandboxed commands have no network. */
  network?: NetworkSwitch;
}

export interface NetworkSwitch {
  allowed(): boolean;
  /** Turns the network on for the task's commands (the person approved a command that needs it). */
  allow(): void;
}

export interface ToolResult {
  /** Text for the model (the loop caps it at 16,000 characters). */
  content: string;
  isError?: boolean;
  /** Files the tool created or changed, relative to root (recorded in the files table). */
  touched?: string[];
}

/** What the approval step needs to show a person before a risky call runs. */
export interface ToolRisk {
  risk: 'standard' | 'destructive';
  /** Human-readable detail: the full command, a diff for edits, the URL. */
  detail: string | null;
  /** A blocked call never runs; its reason is returned to the model. */
  blocked?: string;
}

export interface Tool<P extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  parameters: P;
  kind: ToolKind;
  /** Assess a call before it runs (classification, diffs). Optional: default is standard risk. */
  assess?(args: z.output<P>, ctx: Omit<ToolContext, 'signal' | 'progress'>): Promise<ToolRisk> | ToolRisk;
  execute(args: z.output<P>, ctx: ToolContext): Promise<ToolResult>;
}

/** Tool failures the model should see as data (not crashes): bad paths, no match, etc. */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolError';
  }
}
