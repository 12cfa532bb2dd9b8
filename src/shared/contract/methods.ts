// Folio's service, defined once. Every method: a strict zod input, a zod output, and where it is
// reachable over HTTP, its route. The IPC bridge, the HTTP router and both renderer adapters are
// derived from this table; nothing is hand-written per call.
import { z } from 'zod';
import {
  ApprovalDecision,
  ApprovalMode,
  ConfigWarning,
  Description,
  FileEntry,
  Id,
  Message,
  MessageText,
  ModelProfileInfo,
  PendingApproval,
  RelPath,
  Run,
  Settings,
  SkillInfo,
  Task,
  TaskMode,
  TaskStatus,
  Title,
  ToolName,
  UiLanguage,
  Usage,
} from './entities';
import { ReasoningMode } from './entities';
import { ProbeReport } from './probe';
import { QuotaUsage, UsageMonth, UsagePeriodInfo, UserUsage } from './usage';
import { SearchSettingsInput, SearchTestReport } from './search-settings';
import { EmbeddingSettingsInput, EmbeddingTestReport } from './embedding-settings';
import { DeckSpecSchema, QualityReport } from '../specs/deck';
import { DeckPlan } from '../specs/deck-plan';
import { DeckVersionList, DeckVersionSource } from '../specs/deck-versions';
import { SlideId } from '../specs/slide-ids';
import { DocumentSpec } from '../specs/document';
import { RevisedDocument } from '../specs/document-revision';
import { DeckOutline, OutlineRowsInput } from '../specs/deck-outline';
import { BackdropLayer, TemplateId, TemplateSummary, UnreadableTemplate } from '../specs/templates';
import { ThemeSchema } from '../specs/themes';
import { BranchPoint } from './branches';
import { ToolKind } from './events';
import { CustomProviderInput, CustomProviderResult, ProviderBase, ProviderKey, ProviderModel, SetupStatus } from './setup';
import { McpConfigProblem, McpPromptInfo, McpResourceInfo, McpServerInfo, McpServerName } from './mcp';
import { IndexProgress, LibraryFile, LibraryId, LibrarySearchResult, Project, ProjectInstructions, ProjectName, SearchQuery } from './projects';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface MethodSpec<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  input: I;
  output: O;
  /** HTTP route; `:name` segments fill the input field of the same name. Absent: IPC only. */
  http?: { method: HttpMethod; path: string; /** the output is a file body, not JSON */ download?: boolean };
  /** Allowed only over IPC from the desktop window (e.g. it names local paths). */
  ipcOnly?: boolean;
}

export const SourceInfo = z.object({
  path: z.string(),
  status: z.enum(['pending', 'ok', 'scanned', 'image', 'error']),
  pages: z.number().int().nullable(),
  message: z.string().nullable(),
  cache_path: z.string().nullable(),
});
export type SourceInfo = z.infer<typeof SourceInfo>;

export const ArtifactPreview = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('deck'),
    path: z.string(),
    spec: DeckSpecSchema,
    report: QualityReport.nullable(),
    /** What the renderer drew; null for decks rendered before plans existed (no slide drawing then). */
    plan: DeckPlan.nullable().default(null),
    /** Where this version came from and its per-slide hashes; null for decks rendered before versions were recorded. */
    version: DeckVersionSource.nullable().default(null),
    /** The theme the deck was drawn with (built-in, a user theme or an imported template); null for older renders. */
    theme: ThemeSchema.nullable().default(null),
  }),
  z.object({
    kind: z.literal('document'),
    path: z.string(),
    spec: DocumentSpec,
    sections: z.array(z.object({ file: z.string(), markdown: z.string() })),
    report: z.unknown(),
  }),
  /** A person's .docx revised with tracked changes: its text with the insertions and deletions marked. */
  RevisedDocument.extend({ kind: z.literal('revision'), path: z.string() }),
  z.object({ kind: z.literal('none'), path: z.string(), reason: z.string() }),
]);
export type ArtifactPreview = z.infer<typeof ArtifactPreview>;

/**
 * Slides a person selected in a deck's preview, sent with their instruction ("make this a chart"):
 * the agent is told to change only these slides of the spec (see slide-context.ts in main).
 */
export const SlideContext = z.strictObject({
  /** The deck the person was looking at (task-relative .pptx). */
  artifact_path: RelPath,
  /** The spec file it was rendered from, null for an inline spec. */
  spec_path: RelPath.nullable(),
  /** The selected slides: their ids and the number of their first slide in that file. */
  slides: z
    .array(z.strictObject({ id: SlideId, number: z.number().int().min(1).max(10_000) }))
    .min(1)
    .max(300),
});
export type SlideContext = z.infer<typeof SlideContext>;

/** Whether Folio's database opened soundly; when not, the backup a restore would bring back. */
export const HealthReport = z.object({
  database: z.enum(['ok', 'corrupt']),
  /** What is wrong, for the person (null when healthy). */
  message: z.string().nullable(),
  /** When the newest backup was taken (ms epoch), null when there is none. */
  backup_at: z.number().int().nullable(),
});
export type HealthReport = z.infer<typeof HealthReport>;


/** A tool as Settings lists it for "always allow". kind is null for a tool not loaded now (an MCP server that is off). */
export const ToolPermission = z.object({
  name: z.string(),
  kind: ToolKind.nullable(),
  always_allow: z.boolean(),
  /** false for tools that run code (commands and scripts are granted per exact command only). */
  grantable: z.boolean(),
});
export type ToolPermission = z.infer<typeof ToolPermission>;

/**
 * A contract entry whose schemas are built on the first use of that method, not at import: this
 * module is in start-up's import graph (the IPC bridge, the HTTP router and the CLI), and building
 * every method's input and output schemas was a large part of what the server did before it could
 * answer. Names, routes and `ipcOnly` stay plain data; the table itself stays the one source.
 */
function method<I extends z.ZodType, O extends z.ZodType>(def: Omit<MethodSpec<I, O>, 'input' | 'output'> & { input: () => I; output: () => O }): MethodSpec<I, O> {
  let input: I | undefined;
  let output: O | undefined;
  const spec: MethodSpec<I, O> = {
    get input() {
      return (input ??= def.input());
    },
    get output() {
      return (output ??= def.output());
    },
  };
  if (def.http) spec.http = def.http;
  if (def.ipcOnly !== undefined) spec.ipcOnly = def.ipcOnly;
  return spec;
}
const Ok = z.object({ ok: z.literal(true) });
/** The longest reason a person may give with an approval decision. */
export const APPROVAL_REASON_MAX_CHARS = 2000;
const TaskRef = { task_id: Id };

/** A file read over the contract in one payload: text as UTF-8, anything else as base64. */
const FileContent = z.object({ path: z.string(), mime: z.string(), size: z.number().int(), encoding: z.enum(['utf8', 'base64']), data: z.string() });

export const contract = {
  createTask: method({
    input: () => z.strictObject({
      mode: TaskMode,
      title: Title.optional(),
      description: Description.optional(),
      model: z.string().max(200).optional(),
      reasoning: ReasoningMode.nullable().optional(),
      /** The project the task belongs to; its defaults fill what the request leaves out. */
      project_id: Id.nullable().optional(),
    }),
    output: () => Task,
    http: { method: 'POST', path: '/v1/tasks' },
  }),
  listTasks: method({
    input: () => z.strictObject({
      status: TaskStatus.optional(),
      q: z.string().max(200).optional(),
      /** Only one project's tasks, or `none` for tasks outside every project. */
      project_id: z.union([z.literal('none'), Id]).optional(),
    }),
    output: () => z.object({ tasks: z.array(Task) }),
    http: { method: 'GET', path: '/v1/tasks' },
  }),
  getTask: method({
    input: () => z.strictObject(TaskRef),
    output: () => Task,
    http: { method: 'GET', path: '/v1/tasks/:task_id' },
  }),
  updateTask: method({
    input: () => z.strictObject({
      ...TaskRef,
      title: Title.optional(),
      description: Description.optional(),
      mode: TaskMode.optional(),
      status: TaskStatus.optional(),
      model: z.string().max(200).nullable().optional(),
      approval_mode: ApprovalMode.optional(),
      /** A coding task's folder (absolute path, confirmed by the person); tools are confined to it. */
      workspace_path: z.string().min(1).max(4096).nullable().optional(),
      /** "Allow network for commands in this task". */
      allow_network: z.boolean().optional(),
      /** 'none' | 'thinking' | 'max', or null for the profile's default. */
      reasoning: ReasoningMode.nullable().optional(),
      /** MCP: the MCP servers whose tools this task's runs get; null: none. */
      mcp_servers: z.array(McpServerName).max(100).nullable().optional(),
      /** Projects: move the task into a project, or out of it with null. */
      project_id: Id.nullable().optional(),
    }),
    output: () => Task,
    http: { method: 'PATCH', path: '/v1/tasks/:task_id' },
  }),
  deleteTask: method({
    input: () => z.strictObject(TaskRef),
    output: () => Ok,
    http: { method: 'DELETE', path: '/v1/tasks/:task_id' },
  }),
  listMessages: method({
    input: () => z.strictObject({
      ...TaskRef,
      before_seq: z.coerce.number().int().positive().optional(),
      limit: z.coerce.number().int().min(1).max(500).optional(),
    }),
    output: () => z.object({ messages: z.array(Message), has_more: z.boolean() }),
    http: { method: 'GET', path: '/v1/tasks/:task_id/messages' },
  }),
  sendMessage: method({
    input: () => z.strictObject({ ...TaskRef, content: MessageText, context: SlideContext.optional() }),
    output: () => z.object({ run_id: Id }),
    http: { method: 'POST', path: '/v1/tasks/:task_id/messages' },
  }),
  listRuns: method({
    input: () => z.strictObject(TaskRef),
    output: () => z.object({ runs: z.array(Run) }),
    http: { method: 'GET', path: '/v1/tasks/:task_id/runs' },
  }),
  cancelRun: method({
    input: () => z.strictObject({ ...TaskRef, run_id: Id }),
    output: () => Ok,
    http: { method: 'POST', path: '/v1/tasks/:task_id/runs/:run_id/cancel' },
  }),
  continueTask: method({
    input: () => z.strictObject(TaskRef),
    output: () => z.object({ run_id: Id }),
    http: { method: 'POST', path: '/v1/tasks/:task_id/continue' },
  }),
  listApprovals: method({
    input: () => z.strictObject(TaskRef),
    output: () => z.object({ approvals: z.array(PendingApproval) }),
    http: { method: 'GET', path: '/v1/tasks/:task_id/approvals' },
  }),
  decideApproval: method({
    input: () => z.strictObject({
      ...TaskRef,
      run_id: Id,
      call_id: z.string().min(1).max(200),
      decision: ApprovalDecision,
      reason: z.string().max(APPROVAL_REASON_MAX_CHARS).optional(),
    }),
    output: () => Ok,
    http: { method: 'POST', path: '/v1/tasks/:task_id/runs/:run_id/approvals/:call_id' },
  }),
  getToolResult: method({
    input: () => z.strictObject({ ...TaskRef, call_id: z.string().min(1).max(200) }),
    output: () => z.object({ call_id: z.string(), content: z.string(), is_error: z.boolean() }),
    http: { method: 'GET', path: '/v1/tasks/:task_id/tool-results/:call_id' },
  }),
  listFiles: method({
    input: () => z.strictObject(TaskRef),
    output: () => z.object({ files: z.array(FileEntry) }),
    http: { method: 'GET', path: '/v1/tasks/:task_id/files' },
  }),
  /** Copies local files into `source/` (desktop drop / file picker). Over HTTP, files arrive as multipart. */
  addFiles: method({
    input: () => z.strictObject({ ...TaskRef, paths: z.array(z.string().min(1).max(4096)).min(1).max(100) }),
    output: () => z.object({ files: z.array(FileEntry) }),
    ipcOnly: true,
  }),
  readFile: method({
    input: () => z.strictObject({ ...TaskRef, path: RelPath }),
    output: () => FileContent,
    http: { method: 'GET', path: '/v1/tasks/:task_id/files/*path', download: true },
  }),
  deleteFile: method({
    input: () => z.strictObject({ ...TaskRef, path: RelPath }),
    output: () => Ok,
    http: { method: 'DELETE', path: '/v1/tasks/:task_id/files/*path' },
  }),
  listSources: method({
    input: () => z.strictObject(TaskRef),
    output: () => z.object({ sources: z.array(SourceInfo) }),
    http: { method: 'GET', path: '/v1/tasks/:task_id/sources' },
  }),
  /** What a person sees before opening an artifact: the deck spec or document drawn in HTML. */
  getArtifactPreview: method({
    input: () => z.strictObject({ ...TaskRef, path: RelPath }),
    output: () => ArtifactPreview,
    http: { method: 'GET', path: '/v1/tasks/:task_id/previews/*path' },
  }),
  /** Converts a .pptx/.docx artifact to PDF with LibreOffice (when installed). */
  exportPdf: method({
    /** notes: a deck as notes pages (each slide above its speaker notes), `<name>-notes.pdf`. */
    input: () => z.strictObject({ ...TaskRef, path: RelPath, notes: z.boolean().optional() }),
    output: () => z.object({ path: z.string(), pages: z.number().int() }),
    http: { method: 'POST', path: '/v1/tasks/:task_id/exports/*path' },
  }),
  /** Opens a task file with the system's application, or shows it in its folder (desktop only). */
  openPath: method({
    input: () => z.strictObject({ ...TaskRef, path: RelPath, reveal: z.boolean().optional() }),
    output: () => Ok,
    ipcOnly: true,
  }),
  getCapabilities: method({
    input: () => z.strictObject({}),
    /** sandbox: whether commands and scripts run isolated (bubblewrap, Linux); elsewhere Settings says they are not. */
    /** python: the Python 3 run_python uses (version null: a container's, not probed); not available: the tool is not offered. */
    output: () =>
      z.object({
        desktop: z.boolean(),
        soffice: z.boolean(),
        sandbox: z.boolean(),
        python: z.object({ available: z.boolean(), version: z.string().nullable(), packages: z.array(z.string()) }),
      }),
    http: { method: 'GET', path: '/v1/capabilities' },
  }),
  probeModel: method({
    input: () => z.strictObject({ profile_id: z.string().min(1).max(200), needle: z.boolean().optional() }),
    output: () => ProbeReport,
    http: { method: 'POST', path: '/v1/models/probe' },
  }),
  listModels: method({
    input: () => z.strictObject({}),
    output: () => z.object({ profiles: z.array(ModelProfileInfo), warnings: z.array(ConfigWarning) }),
    http: { method: 'GET', path: '/v1/models' },
  }),
  setApiKey: method({
    input: () => z.strictObject({ env: z.string().regex(/^[A-Z][A-Z0-9_]{0,99}$/), key: z.string().max(500) }),
    output: () => Ok,
    http: { method: 'POST', path: '/v1/keys' },
  }),
  listSkills: method({
    input: () => z.strictObject({}),
    output: () => z.object({ skills: z.array(SkillInfo), warnings: z.array(ConfigWarning) }),
    http: { method: 'GET', path: '/v1/skills' },
  }),
  /**
   * The desktop: all-time totals per task. The team service: the tenant's usage for a month (this
   * one in UTC, or `period`), per user, with its quotas; `tasks` then covers that month too.
   */
  getUsage: method({
    input: () => z.strictObject({ period: UsageMonth.optional() }),
    output: () =>
      z.object({
        total: Usage,
        tasks: z.array(Usage.extend({ task_id: Id, title: z.string() })),
        tenant_id: z.string().optional(),
        period: UsagePeriodInfo.optional(),
        users: z.array(UserUsage).optional(),
        /** Bytes the tenant stores now. */
        storage_bytes: z.number().int().optional(),
        quotas: z.array(QuotaUsage).optional(),
      }),
    http: { method: 'GET', path: '/v1/usage' },
  }),
  getSettings: method({
    input: () => z.strictObject({}),
    output: () => Settings,
    http: { method: 'GET', path: '/v1/settings' },
  }),
  updateSettings: method({
    input: () => z.strictObject({
      language: Settings.shape.language.optional(),
      default_model: z.string().max(200).nullable().optional(),
      // Null turns it off
      search: SearchSettingsInput.nullable().optional(),
      // The embedding profile; null turns semantic search off
      embedding: EmbeddingSettingsInput.nullable().optional(),
    }),
    output: () => Settings,
    http: { method: 'PATCH', path: '/v1/settings' },
  }),
  /** Answers even when the database is damaged (every other method then fails with database_corrupt). */
  getHealth: method({
    input: () => z.strictObject({}),
    output: () => HealthReport,
    http: { method: 'GET', path: '/v1/health' },
  }),
  /** Replaces a damaged database with the newest sound backup; the damaged file is kept beside it. */
  restoreBackup: method({
    input: () => z.strictObject({}),
    output: () => z.object({ restored_from: z.number().int(), corrupt_copy: z.string().nullable() }),
    http: { method: 'POST', path: '/v1/health/restore' },
  }),
  /** The task's deck outline (work/outline.json): null when there is none; `problem` when the file is damaged. */
  getOutline: method({
    input: () => z.strictObject(TaskRef),
    output: () => z.object({ outline: DeckOutline.nullable(), problem: z.string().nullable() }),
    http: { method: 'GET', path: '/v1/tasks/:task_id/outline' },
  }),
  /** The person's edited outline (rows added, removed, reordered, changed): stored as proposed, not approved. */
  saveOutline: method({
    input: () => z.strictObject({ ...TaskRef, slides: OutlineRowsInput }),
    output: () => DeckOutline,
    http: { method: 'POST', path: '/v1/tasks/:task_id/outline' },
  }),
  /**
   * Approves the outline (the given rows, else the stored ones), grants the task the writes under
   * work/ and the renders that follow, and tells the agent so with a message in `language` (the UI's;
   * absent: the outline's), which starts the run that writes the deck.
   */
  approveOutline: method({
    input: () => z.strictObject({ ...TaskRef, slides: OutlineRowsInput.optional(), language: UiLanguage.optional() }),
    output: () => z.object({ outline: DeckOutline, run_id: Id }),
    http: { method: 'POST', path: '/v1/tasks/:task_id/outline/approve' },
  }),
  /** The versions of the deck a .pptx belongs to (name.pptx, name-v2.pptx, ...), oldest first, each compared slide by slide with the one before. */
  listDeckVersions: method({
    input: () => z.strictObject({ ...TaskRef, path: RelPath }),
    output: () => DeckVersionList,
    http: { method: 'GET', path: '/v1/tasks/:task_id/deck-versions/*path' },
  }),
  /** Goes back to a version: its spec into the spec file, rendered as the new latest version (nothing overwritten or deleted). */
  restoreDeckVersion: method({
    input: () => z.strictObject({ ...TaskRef, path: RelPath }),
    output: () => z.object({ path: z.string(), spec_path: z.string().nullable() }),
    http: { method: 'POST', path: '/v1/tasks/:task_id/deck-versions/*path' },
  }),
  // A person's .pptx/.potx imported as a deck theme
  /** Imported templates (`<data>/templates`); a deck spec uses one as `"theme": "<id>"`. */
  listTemplates: method({
    input: () => z.strictObject({}),
    output: () => z.object({ templates: z.array(TemplateSummary), errors: z.array(UnreadableTemplate) }),
    http: { method: 'GET', path: '/v1/templates' },
  }),
  /** Imports a local .pptx/.potx (desktop file picker). Over HTTP, `POST /v1/templates` takes it as multipart. */
  importTemplate: method({
    input: () => z.strictObject({ path: z.string().min(1).max(4096) }),
    output: () => TemplateSummary,
    ipcOnly: true,
  }),
  deleteTemplate: method({
    input: () => z.strictObject({ template_id: TemplateId }),
    output: () => Ok,
    http: { method: 'DELETE', path: '/v1/templates/:template_id' },
  }),
  /** Sample slides of every kind planned on the template, drawn by the UI before the template is used. */
  getTemplatePreview: method({
    /** `language`: the screen's, which the sample slides are written in (default English). */
    input: () => z.strictObject({ template_id: TemplateId, language: UiLanguage.optional() }),
    output: () => z.object({
      plan: DeckPlan,
      /** The theme the samples were planned with (fonts and colours the preview draws with). */
      theme: ThemeSchema,
      /** The master's logo as a data: URL, drawn over each sample at its place (fractions of the slide). */
      logo: z.object({ data_url: z.string(), x: z.number(), y: z.number(), w: z.number(), h: z.number() }).nullable(),
      /** The layout each sample slide is drawn on. */
      layouts: z.array(z.string()),
      /** For each sample slide, what its layout paints behind it (background, bands, pictures), back to front. */
      backdrops: z.array(z.array(BackdropLayer)),
    }),
    http: { method: 'GET', path: '/v1/templates/:template_id/preview' },
  }),
  // Regenerate, edit, switch
  /**
   * A new reply to the active path's last user message, replacing the reply after it (tool calls
   * included); the replaced reply stays as a branch. Only while no run is active.
   */
  regenerate: method({
    input: () => z.strictObject(TaskRef),
    output: () => z.object({ run_id: Id }),
    http: { method: 'POST', path: '/v1/tasks/:task_id/regenerate' },
  }),
  /**
   * The person's message of the active path, edited: a sibling message with the new text and a run
   * from there; the original and everything after it stay as a branch. Only user messages.
   */
  editMessage: method({
    input: () => z.strictObject({ ...TaskRef, message_id: Id, text: MessageText }),
    output: () => z.object({ run_id: Id }),
    http: { method: 'POST', path: '/v1/tasks/:task_id/messages/:message_id/edit' },
  }),
  /** Where the active path forks: each message on it that has siblings, with its place among them. */
  listBranches: method({
    input: () => z.strictObject(TaskRef),
    output: () => z.object({ branches: z.array(BranchPoint) }),
    http: { method: 'GET', path: '/v1/tasks/:task_id/branches' },
  }),
  /** Makes a sibling's branch the active path (down to where it was last continued). Only while no run is active. */
  switchBranch: method({
    input: () => z.strictObject({ ...TaskRef, message_id: Id }),
    output: () => Ok,
    http: { method: 'POST', path: '/v1/tasks/:task_id/branches/:message_id' },
  }),
  // "always allow this tool"
  /** Tools that may ask, each with whether it is always allowed (global, every task) and whether it may be. */
  listToolPermissions: method({
    input: () => z.strictObject({}),
    output: () => z.object({ tools: z.array(ToolPermission) }),
    http: { method: 'GET', path: '/v1/tool-permissions' },
  }),
  /** Always allows a tool, or stops doing so; a tool that runs code is refused (granted per command only). */
  setToolPermission: method({
    input: () => z.strictObject({ name: ToolName, always_allow: z.boolean() }),
    output: () => ToolPermission,
    http: { method: 'PATCH', path: '/v1/tool-permissions/:name' },
  }),
  /**
   * What a task allows without asking: "Allow for this task" answers and an approved outline's grant.
   * `scope`: '' the whole tool, `work/` its writes under work/, otherwise one exact command.
   */
  listTaskGrants: method({
    input: () => z.strictObject(TaskRef),
    output: () => z.object({ grants: z.array(z.object({ tool: z.string(), scope: z.string() })) }),
    http: { method: 'GET', path: '/v1/tasks/:task_id/grants' },
  }),
  /** Takes a task's grant back: the tool (or command) asks again from its next call. */
  revokeTaskGrant: method({
    input: () => z.strictObject({ ...TaskRef, tool: ToolName, scope: z.string().max(100_000) }),
    output: () => z.object({ revoked: z.boolean() }),
    http: { method: 'POST', path: '/v1/tasks/:task_id/grants/revoke' },
  }),
  // Model setup status and custom providers
  /** Whether a new task would find a usable model, and every provider with its key / server state. */
  getSetupStatus: method({
    input: () => z.strictObject({ mode: TaskMode.optional() }),
    output: () => SetupStatus,
    http: { method: 'GET', path: '/v1/setup' },
  }),
  /** An OpenAI-compatible server's models (`GET {api_base}/models`), before adding it as a provider. POST: the key travels in the body. */
  listProviderModels: method({
    input: () => z.strictObject({ api_base: ProviderBase, api_key: ProviderKey.optional() }),
    output: () => z.object({ models: z.array(ProviderModel) }),
    http: { method: 'POST', path: '/v1/setup/provider-models' },
  }),
  /** Writes `<data>/models/<slug>.yaml` with the chosen models; the key goes to the key store, never the file. */
  addCustomProvider: method({
    input: () => CustomProviderInput,
    output: () => CustomProviderResult,
    http: { method: 'POST', path: '/v1/setup/providers' },
  }),
  /** Runs one query against the configured search backend (Settings → Web search → Test). */
  testSearch: method({
    input: () =>
      z.strictObject({
        query: z.string().min(1).max(500).optional(),
        // Settings as typed in the form, tested without being saved (a failing URL must not replace a
        // working one); absent: the stored settings. `key`: a typed key for them, used for this test only.
        search: SearchSettingsInput.optional(),
        key: z.string().min(1).max(500).optional(),
      }),
    output: () => SearchTestReport,
    http: { method: 'POST', path: '/v1/settings/search/test' },
  }),
  /** Embeds one short text with the form's or the stored embedding profile (Settings → Semantic search → Test). */
  testEmbedding: method({
    input: () =>
      z.strictObject({
        // The profile as typed in the form, tested without being saved (a failing endpoint must not
        // replace a working one); absent: the stored profile. `key`: a typed key, for this test only.
        embedding: EmbeddingSettingsInput.optional(),
        key: z.string().min(1).max(500).optional(),
      }),
    output: () => EmbeddingTestReport,
    http: { method: 'POST', path: '/v1/settings/embedding/test' },
  }),
  // <data>/mcp.json, secrets always redacted
  /** Every configured server: status, error, tools (once started), resource and prompt counts; no secrets. */
  listMcpServers: method({
    input: () => z.strictObject({}),
    output: () => z.object({ servers: z.array(McpServerInfo), problems: z.array(McpConfigProblem) }),
    http: { method: 'GET', path: '/v1/mcp/servers' },
  }),
  /** mcp.json as text, every env value and header shown as "••••". */
  getMcpConfig: method({
    input: () => z.strictObject({}),
    output: () => z.object({ path: z.string(), text: z.string(), problems: z.array(McpConfigProblem) }),
    http: { method: 'GET', path: '/v1/mcp/config' },
  }),
  /** Replaces mcp.json (Claude Desktop's shape); "••••" keeps the stored secret; secrets go to the key store. */
  saveMcpConfig: method({
    input: () => z.strictObject({ text: z.string().max(200_000) }),
    output: () => z.object({ path: z.string(), text: z.string(), problems: z.array(McpConfigProblem) }),
    http: { method: 'PUT', path: '/v1/mcp/config' },
  }),
  /** Stops the server and starts it again now (reading the config afresh). */
  restartMcpServer: method({
    input: () => z.strictObject({ name: McpServerName }),
    output: () => McpServerInfo,
    http: { method: 'POST', path: '/v1/mcp/servers/:name/restart' },
  }),
  listMcpResources: method({
    input: () => z.strictObject({ name: McpServerName }),
    output: () => z.object({ resources: z.array(McpResourceInfo) }),
    http: { method: 'GET', path: '/v1/mcp/servers/:name/resources' },
  }),
  /** Reads a server's resource into the task's source/ folder, where it is extracted like any dropped file. */
  attachMcpResource: method({
    input: () => z.strictObject({ ...TaskRef, server: McpServerName, uri: z.string().min(1).max(4096) }),
    output: () => z.object({ file: FileEntry }),
    http: { method: 'POST', path: '/v1/tasks/:task_id/mcp-resources' },
  }),
  listMcpPrompts: method({
    input: () => z.strictObject({ name: McpServerName }),
    output: () => z.object({ prompts: z.array(McpPromptInfo) }),
    http: { method: 'GET', path: '/v1/mcp/servers/:name/prompts' },
  }),
  /** A server's prompt rendered with its arguments, as text the UI puts into the composer. */
  getMcpPrompt: method({
    input: () => z.strictObject({
      name: McpServerName,
      prompt: z.string().min(1).max(200),
      arguments: z.record(z.string().max(200), z.string().max(20_000)).optional(),
    }),
    output: () => z.object({ text: z.string() }),
    http: { method: 'POST', path: '/v1/mcp/servers/:name/prompts/render' },
  }),
  createProject: method({
    input: () => z.strictObject({
      name: ProjectName,
      instructions: ProjectInstructions.optional(),
      default_model: z.string().max(200).nullable().optional(),
      default_mode: TaskMode.nullable().optional(),
      default_approval_mode: ApprovalMode.nullable().optional(),
    }),
    output: () => Project,
    http: { method: 'POST', path: '/v1/projects' },
  }),
  listProjects: method({
    /** Archived projects are left out unless asked for. */
    input: () => z.strictObject({ archived: z.enum(['true', 'false']).optional() }),
    output: () => z.object({ projects: z.array(Project) }),
    http: { method: 'GET', path: '/v1/projects' },
  }),
  getProject: method({
    input: () => z.strictObject({ project_id: Id }),
    output: () => Project,
    http: { method: 'GET', path: '/v1/projects/:project_id' },
  }),
  updateProject: method({
    input: () => z.strictObject({
      project_id: Id,
      name: ProjectName.optional(),
      instructions: ProjectInstructions.optional(),
      default_model: z.string().max(200).nullable().optional(),
      default_mode: TaskMode.nullable().optional(),
      default_approval_mode: ApprovalMode.nullable().optional(),
      archived: z.boolean().optional(),
    }),
    output: () => Project,
    http: { method: 'PATCH', path: '/v1/projects/:project_id' },
  }),
  /** Deletes the project and its library; its tasks stay, without a project. */
  deleteProject: method({
    input: () => z.strictObject({ project_id: Id }),
    output: () => Ok,
    http: { method: 'DELETE', path: '/v1/projects/:project_id' },
  }),
  /** A library's files (`project_id` = a project's id or `personal`) and the index's measured progress. */
  listLibraryFiles: method({
    input: () => z.strictObject({ project_id: LibraryId }),
    output: () => z.object({ files: z.array(LibraryFile), progress: IndexProgress }),
    http: { method: 'GET', path: '/v1/projects/:project_id/files' },
  }),
  /** Copies local files into a library (desktop drop / picker). Over HTTP, files arrive as multipart on the same path. */
  addLibraryFiles: method({
    input: () => z.strictObject({ project_id: LibraryId, paths: z.array(z.string().min(1).max(4096)).min(1).max(100) }),
    output: () => z.object({ files: z.array(LibraryFile) }),
    ipcOnly: true,
  }),
  deleteLibraryFile: method({
    input: () => z.strictObject({ project_id: LibraryId, path: RelPath }),
    output: () => Ok,
    http: { method: 'DELETE', path: '/v1/projects/:project_id/files/*path' },
  }),
  /** A library file's bytes (`project_id` = its library: a project's id or `personal`), to show a search hit. */
  readLibraryFile: method({
    input: () => z.strictObject({ project_id: LibraryId, path: RelPath }),
    output: () => FileContent,
    http: { method: 'GET', path: '/v1/projects/:project_id/files/*path', download: true },
  }),
  /** Ranked search over a project's library and the personal library (`personal`: that one alone). */
  searchLibrary: method({
    input: () => z.strictObject({ project_id: LibraryId, q: SearchQuery, limit: z.coerce.number().int().min(1).max(50).optional() }),
    output: () => LibrarySearchResult,
    http: { method: 'GET', path: '/v1/projects/:project_id/search' },
  }),
} satisfies Record<string, MethodSpec>;

export type Contract = typeof contract;
export type MethodName = keyof Contract;
export type MethodInput<M extends MethodName> = z.input<Contract[M]['input']>;
export type MethodParsedInput<M extends MethodName> = z.output<Contract[M]['input']>;
export type MethodOutput<M extends MethodName> = z.output<Contract[M]['output']>;

/** What main implements: one async function per method, receiving validated input. */
export type ServiceHandlers = { [M in MethodName]: (input: MethodParsedInput<M>) => Promise<MethodOutput<M>> };

/** What the renderer calls: the same methods, plus run-event subscription. */
export type FolioClient = { [M in MethodName]: (input: MethodInput<M>) => Promise<MethodOutput<M>> };

export const methodNames = Object.keys(contract) as MethodName[];
export function isMethodName(name: unknown): name is MethodName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(contract, name);
}
