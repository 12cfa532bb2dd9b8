// Test support: a small but coherent in-memory FolioCore built from the contract's types, so the
// transports can be exercised end to end without the real service.
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { tmpdir } from 'node:os';
import { makeScratchDir, UPLOAD_DIR_PREFIX } from '../workspace/scratch';
import { createHash } from 'node:crypto';
import { type FileEntry, type Message, type Run, type Settings, type Task } from '../../shared/contract/entities';
import { type ServiceHandlers } from '../../shared/contract/methods';
import { type Project } from '../../shared/contract/projects';
import { assignOutlineIds, type DeckOutline } from '../../shared/specs/deck-outline';
import { FolioError, NotFoundError, ValidationError } from '../../shared/errors';
import type { FolioCore } from '../service/ports';
import { type TemplateSummary } from '../../shared/specs/templates';
import { BUILTIN_THEMES } from '../../shared/specs/themes';
import { MemoryRunEventHub } from './memory-event-hub.test-support';

interface StoredFile {
  entry: FileEntry;
  bytes: Buffer;
  mime: string;
}

export interface FakeCore extends FolioCore {
  hub: MemoryRunEventHub;
  tasks: Map<string, Task>;
  files: Map<string, Map<string, StoredFile>>;
  /** Every addUploadedFiles call: the names, temp paths and bytes it was given. */
  uploads: { taskId: string; files: { name: string; path: string; bytes: Buffer }[] }[];
  /** ---- lib-backend: every addUploadedLibraryFiles call's files ---- */
  libraryUploads: { library: string; name: string; bytes: Buffer }[];
  apiKeys: Map<string, string>;
  /** Makes one handler misbehave, to test how transports contain bugs in main. */
  sabotage: Partial<Record<keyof ServiceHandlers, () => unknown>>;
  putFile(taskId: string, path: string, bytes: Buffer, mime: string): FileEntry;
  /** Imported templates by id (seeded with "acme"). */
  templates: Map<string, TemplateSummary>;
  /** Each task's messages (the active path only: the fake keeps no replaced branches). */
  messages: Map<string, Message[]>;
}

/** A template summary as the real importer would return it, for the transports' tests. */
export function fakeTemplate(id: string, name: string): TemplateSummary {
  return {
    id, name, file_name: `${name}.pptx`, created_at: 1, aspect: '16:9', slide_size: { cx: 12192000, cy: 6858000 },
    colours: { accent1: 'C8102E' }, fonts: { major_latin: 'Georgia', minor_latin: 'Arial', major_ea: '', minor_ea: '' },
    background: { kind: 'solid', colour: 'FFFFFF' }, logo: null, fixed_text: [], master: 'ppt/slideMasters/slideMaster1.xml',
    layouts: [{ name: 'Title and Content', type: 'obj', part: 'ppt/slideLayouts/slideLayout2.xml', placeholders: [{ type: 'title', x: 0.1, y: 0.05, w: 0.8, h: 0.15 }], pictures: 0 }],
    mapping: { title: 'ppt/slideLayouts/slideLayout2.xml', section: 'ppt/slideLayouts/slideLayout2.xml', content: 'ppt/slideLayouts/slideLayout2.xml', two_content: 'ppt/slideLayouts/slideLayout2.xml', blank: 'ppt/slideLayouts/slideLayout2.xml' },
    warnings: [], palette: { background: 'FFFFFF', text: '111111', accent: 'C8102E', accent2: '333333', chart: ['C8102E', '333333', '999999'] },
    heading_font: 'Georgia', body_font: 'Arial',
  };
}

const textMimes = /^(text\/|application\/json)/;

export function createFakeCore(): FakeCore {
  // Uploads are staged in <dataDir>/tmp, as the real core does; tests count leftovers there.
  const dataDir = join(tmpdir(), 'folio-fake');
  const hub = new MemoryRunEventHub();
  const tasks = new Map<string, Task>();
  const messages = new Map<string, Message[]>();
  const runs = new Map<string, Run[]>();
  const files = new Map<string, Map<string, StoredFile>>();
  const uploads: FakeCore['uploads'] = [];
  const libraryUploads: FakeCore['libraryUploads'] = [];
  const apiKeys = new Map<string, string>();
  const sabotage: FakeCore['sabotage'] = {};
  let settings: Settings = { data_dir: '/tmp/folio-fake', language: 'system', default_model: null };
  let counter = 0;
  let now = 1_700_000_000_000;
  const nextId = (prefix: string) => `${prefix}_${(++counter).toString(36)}`;

  const task = (id: string): Task => {
    const found = tasks.get(id);
    if (!found) throw new NotFoundError(`Task ${id} not found`);
    return found;
  };
  const fileEntry = (taskId: string, path: string, bytes: Buffer): FileEntry => ({
    task_id: taskId,
    path,
    kind: path.startsWith('source/') ? 'source' : path.startsWith('artifacts/') ? 'artifact' : 'work',
    size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    created_at: now++,
  });
  const putFile = (taskId: string, path: string, bytes: Buffer, mime: string): FileEntry => {
    task(taskId);
    const entry = fileEntry(taskId, path, bytes);
    const byPath = files.get(taskId) ?? new Map<string, StoredFile>();
    byPath.set(path, { entry, bytes, mime });
    files.set(taskId, byPath);
    return entry;
  };
  const startRun = (taskId: string): string => {
    const t = task(taskId);
    const id = nextId('run');
    const run: Run = {
      id, task_id: taskId, status: 'running', model: t.model, started_at: now++, finished_at: null, error: null,
      prompt_tokens: 0, completion_tokens: 0, cost: 0, tool_calls: {},
    };
    runs.set(taskId, [...(runs.get(taskId) ?? []), run]);
    tasks.set(taskId, { ...t, last_run: { id, status: 'running' } });
    hub.startRun(taskId, id);
    hub.emit(id, { type: 'run_started', model: t.model, resumed: false });
    return id;
  };
  const sabotaged = <T>(name: keyof ServiceHandlers, value: () => T): T => {
    const bug = sabotage[name];
    return (bug ? bug() : value()) as T;
  };

  const outlines = new Map<string, DeckOutline>();
  const handlers: ServiceHandlers = {
    async createTask(input) {
      return sabotaged('createTask', () => {
        const t: Task = {
          id: nextId('task'), title: input.title ?? 'Untitled', description: input.description ?? '', mode: input.mode,
          status: 'active', model: input.model ?? null, approval_mode: 'ask', workspace_path: null, allow_network: false,
          prompt_tokens: 0, completion_tokens: 0, cost: 0, created_at: now, updated_at: now++, last_run: null,
          reasoning: input.reasoning ?? null,
          mcp_servers: null,
          project_id: input.project_id ?? null,
        };
        tasks.set(t.id, t);
        return t;
      });
    },
    async listTasks(input) {
      const q = input.q?.toLowerCase();
      const list = [...tasks.values()].filter(
        (t) => (!input.status || t.status === input.status) && (!q || t.title.toLowerCase().includes(q)),
      );
      return { tasks: list };
    },
    async getTask(input) {
      return sabotaged('getTask', () => task(input.task_id));
    },
    async updateTask({ task_id, ...patch }) {
      const t = task(task_id);
      const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<Task>;
      const updated: Task = { ...t, ...defined, updated_at: now++ };
      tasks.set(task_id, updated);
      return updated;
    },
    async deleteTask(input) {
      task(input.task_id);
      tasks.delete(input.task_id);
      files.delete(input.task_id);
      return { ok: true };
    },
    async listMessages(input) {
      task(input.task_id);
      const all = (messages.get(input.task_id) ?? []).filter((m) => input.before_seq === undefined || m.seq < input.before_seq);
      const limit = input.limit ?? 100;
      return { messages: all.slice(-limit), has_more: all.length > limit };
    },
    async sendMessage(input) {
      const list = messages.get(input.task_id) ?? [];
      const runId = startRun(input.task_id);
      list.push({
        id: nextId('msg'), task_id: input.task_id, run_id: runId, seq: list.length + 1, role: 'user', content: input.content,
        reasoning: null, tool_calls: null, tool_call_id: null, is_error: false, name: null, created_at: now++,
      });
      messages.set(input.task_id, list);
      return { run_id: runId };
    },
    async listRuns(input) {
      task(input.task_id);
      return { runs: runs.get(input.task_id) ?? [] };
    },
    async cancelRun(input) {
      const run = (runs.get(input.task_id) ?? []).find((r) => r.id === input.run_id);
      if (!run) throw new NotFoundError(`Run ${input.run_id} not found`);
      if (run.status !== 'running') throw new FolioError('conflict', 'Run is not running');
      run.status = 'cancelled';
      hub.emit(run.id, { type: 'run_finished', reason: 'cancelled', duration_ms: 1 });
      return { ok: true };
    },
    async continueTask(input) {
      return { run_id: startRun(input.task_id) };
    },
    async listApprovals(input) {
      task(input.task_id);
      return { approvals: [] };
    },
    async decideApproval(input) {
      const run = (runs.get(input.task_id) ?? []).find((r) => r.id === input.run_id);
      if (!run || run.status !== 'running') throw new NotFoundError(`No pending approval ${input.call_id}`);
      hub.emit(run.id, { type: 'approval_resolved', call_id: input.call_id, decision: input.decision });
      return { ok: true };
    },
    async getToolResult(input) {
      task(input.task_id);
      return { call_id: input.call_id, content: `result of ${input.call_id}`, is_error: false };
    },
    async listFiles(input) {
      task(input.task_id);
      return { files: [...(files.get(input.task_id)?.values() ?? [])].map((f) => f.entry) };
    },
    async addFiles(input) {
      const added: FileEntry[] = [];
      for (const path of input.paths) {
        const bytes = await readFile(path).catch(() => {
          throw new NotFoundError(`File ${basename(path)} not found`);
        });
        added.push(putFile(input.task_id, `source/${basename(path)}`, bytes, 'application/octet-stream'));
      }
      return { files: added };
    },
    async readFile(input) {
      const stored = files.get(task(input.task_id).id)?.get(input.path);
      if (!stored) throw new NotFoundError(`File ${input.path} not found`);
      const text = textMimes.test(stored.mime);
      return {
        path: input.path, mime: stored.mime, size: stored.bytes.length, encoding: text ? 'utf8' : 'base64',
        data: stored.bytes.toString(text ? 'utf8' : 'base64'),
      };
    },
    async deleteFile(input) {
      if (!files.get(task(input.task_id).id)?.delete(input.path)) throw new NotFoundError(`File ${input.path} not found`);
      return { ok: true };
    },
    async listSources(input) {
      task(input.task_id);
      return { sources: [{ path: 'source/a.pdf', status: 'ok', pages: 3, message: null, cache_path: 'source/a.pdf.md' }] };
    },
    async getArtifactPreview(input) {
      task(input.task_id);
      return { kind: 'none', path: input.path, reason: 'fake core has no previews' };
    },
    async exportPdf(input) {
      task(input.task_id);
      if (!input.path.startsWith('artifacts/')) throw new ValidationError('Only artifacts can be exported');
      return { path: input.path.replace(/\.\w+$/, input.notes ? '-notes.pdf' : '.pdf'), pages: 1 };
    },
    async openPath(input) {
      task(input.task_id);
      return { ok: true };
    },
    async getCapabilities() {
      return { desktop: false, soffice: false, sandbox: false, python: { available: false, version: null, packages: [] } };
    },
    async probeModel(input) {
      return { profile: input.profile_id, rows: [{ check: 'chat', declared: { kind: 'reply' }, observed: { kind: 'replied', text: 'pong' }, ok: true }], exit_code: 0 };
    },
    async listModels() {
      return { profiles: [], warnings: [{ source: 'fake', finding: { kind: 'no_profiles' }, message: 'no model profiles are configured' }] };
    },
    async setApiKey(input) {
      apiKeys.set(input.env, input.key);
      return { ok: true };
    },
    async listSkills() {
      return { skills: [{ name: 'pptx', description: 'Decks', source: 'builtin', path: '/skills/pptx' }], warnings: [] };
    },
    async getUsage() {
      return { total: { prompt_tokens: 0, completion_tokens: 0, cost: 0 }, tasks: [] };
    },
    async getSettings() {
      return settings;
    },
    async updateSettings(input) {
      settings = {
        ...settings,
        ...(input.language !== undefined ? { language: input.language } : {}),
        ...(input.default_model !== undefined ? { default_model: input.default_model } : {}),
      };
      if (input.search === null) delete settings.search;
      else if (input.search) settings.search = { backend: input.search.backend, url: input.search.url ?? null, api_key_env: input.search.api_key_env ?? null, has_key: false };
      return settings;
    },
    async getHealth() {
      return { database: 'ok' as const, message: null, backup_at: null };
    },
    async restoreBackup() {
      return { restored_from: now, corrupt_copy: null };
    },
    async getOutline(input) {
      task(input.task_id);
      return { outline: outlines.get(input.task_id) ?? null, problem: null };
    },
    async saveOutline(input) {
      task(input.task_id);
      const outline = { status: 'proposed' as const, approved_at: null, updated_at: now++, slides: assignOutlineIds(input.slides) };
      outlines.set(input.task_id, outline);
      return outline;
    },
    async approveOutline(input) {
      const stored = outlines.get(task(input.task_id).id);
      const slides = input.slides ? assignOutlineIds(input.slides) : stored?.slides;
      if (!slides) throw new NotFoundError(`Task ${input.task_id} has no outline`);
      const outline = { status: 'approved' as const, approved_at: now, updated_at: now++, slides };
      outlines.set(input.task_id, outline);
      return { outline, run_id: startRun(input.task_id) };
    },
    async listDeckVersions(input) {
      task(input.task_id);
      return { versions: [] };
    },
    async restoreDeckVersion(input) {
      task(input.task_id);
      return { path: input.path.replace(/\.pptx$/, '-v2.pptx'), spec_path: null };
    },
    async listTemplates() {
      return { templates: [...templates.values()], errors: [] };
    },
    async importTemplate(input) {
      return importFake(basename(input.path), await readFile(input.path));
    },
    async deleteTemplate(input) {
      if (!templates.delete(input.template_id)) throw new NotFoundError(`No template "${input.template_id}"`);
      return { ok: true as const };
    },
    async getTemplatePreview(input) {
      if (!templates.has(input.template_id)) throw new NotFoundError(`No template "${input.template_id}"`);
      const theme = { ...BUILTIN_THEMES[0], name: input.template_id };
      return { plan: { size: { w: 13.333, h: 7.5 }, theme: input.template_id, slides: [], metrics: 'font' as const }, theme, logo: null, layouts: [], backdrops: [] };
    },
    // The fake drops replaced messages instead of keeping them
    async regenerate(input) {
      const list = messages.get(task(input.task_id).id) ?? [];
      const lastUser = list.findLastIndex((m) => m.role === 'user');
      if (lastUser < 0) throw new FolioError('conflict', 'There is no message to answer again yet.');
      messages.set(input.task_id, list.slice(0, lastUser + 1));
      return { run_id: startRun(input.task_id) };
    },
    async editMessage(input) {
      const list = messages.get(task(input.task_id).id) ?? [];
      const at = list.findIndex((m) => m.id === input.message_id);
      if (at < 0) throw new NotFoundError(`No message ${input.message_id}`);
      if (list[at].role !== 'user') throw new ValidationError('Only your own messages can be edited.');
      messages.set(input.task_id, list.slice(0, at));
      return handlers.sendMessage({ task_id: input.task_id, content: input.text });
    },
    async listBranches(input) {
      task(input.task_id);
      return { branches: [] };
    },
    async switchBranch(input) {
      if (!(messages.get(task(input.task_id).id) ?? []).some((m) => m.id === input.message_id)) throw new NotFoundError(`No message ${input.message_id}`);
      return { ok: true as const };
    },
    async listToolPermissions() {
      return { tools: fakeTools.map((t) => ({ ...t, always_allow: alwaysAllowed.has(t.name) })) };
    },
    async setToolPermission(input) {
      const tool = fakeTools.find((t) => t.name === input.name);
      if (!tool) throw new NotFoundError(`No tool ${input.name}`);
      if (!tool.grantable) throw new ValidationError(`${input.name} runs code`);
      if (input.always_allow) alwaysAllowed.add(input.name);
      else alwaysAllowed.delete(input.name);
      return { ...tool, always_allow: input.always_allow };
    },
    async listTaskGrants(input) {
      task(input.task_id);
      return { grants: [] };
    },
    async revokeTaskGrant(input) {
      task(input.task_id);
      return { revoked: false };
    },
    async getSetupStatus(input) {
      return { ready: true, mode: input.mode ?? 'general', problem: null, providers: [] };
    },
    async listProviderModels(input) {
      if (!input.api_base.startsWith('http://127.0.0.1')) throw new ValidationError(`fake core lists only local servers, not ${input.api_base}`);
      return { models: [{ id: 'fake-model', context_length: null }] };
    },
    async addCustomProvider(input) {
      const slug = input.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
      return { provider: input.name, file: `/data/models/${slug}.yaml`, api_key_env: input.api_key ? 'FOLIO_LAN_API_KEY' : null, profile_ids: input.models.map((m) => `${slug}.${m}`) };
    },
    async testSearch(input) {
      if (!settings.search) return { ok: false, message: 'No search backend is configured.', results: [] };
      return { ok: true, message: null, results: [{ title: `About ${input.query ?? 'Folio'}`, url: 'https://example.org/' }] };
    },
    async testEmbedding() {
      return { ok: false, message: 'No embedding profile is configured.', dimensions: null };
    },
    // One stdio server "everything", its secret always redacted
    async listMcpServers() {
      return { servers: [fakeMcpServer()], problems: [] };
    },
    async getMcpConfig() {
      return { path: '/tmp/folio-fake/mcp.json', text: mcpConfigText, problems: [] };
    },
    async saveMcpConfig(input) {
      mcpConfigText = input.text;
      return { path: '/tmp/folio-fake/mcp.json', text: mcpConfigText, problems: [] };
    },
    async restartMcpServer(input) {
      if (input.name !== 'everything') throw new NotFoundError(`No MCP server "${input.name}"`);
      return { ...fakeMcpServer(), status: 'ready' as const };
    },
    async listMcpResources() {
      return { resources: [{ uri: 'demo://readme', name: 'readme.md', description: null, mime_type: 'text/markdown' }] };
    },
    async attachMcpResource(input) {
      return { file: putFile(input.task_id, 'source/readme.md', Buffer.from('# readme'), 'text/markdown') };
    },
    async listMcpPrompts() {
      return { prompts: [{ name: 'simple', description: null, arguments: [] }] };
    },
    async getMcpPrompt(input) {
      return { text: `prompt ${input.prompt}` };
    },
    // Projects in memory, every library empty
    async createProject(input) {
      const p: Project = {
        id: nextId('project'), name: input.name, instructions: input.instructions ?? '', default_model: input.default_model ?? null,
        default_mode: input.default_mode ?? null, default_approval_mode: input.default_approval_mode ?? null, archived: false,
        task_count: 0, file_count: 0, created_at: now, updated_at: now++,
      };
      projects.set(p.id, p);
      return p;
    },
    async listProjects(input) {
      return { projects: [...projects.values()].filter((p) => input.archived === 'true' || !p.archived) };
    },
    async getProject(input) {
      return project(input.project_id);
    },
    async updateProject(input) {
      const { project_id, ...patch } = input;
      const p = { ...project(project_id), ...patch, updated_at: now++ };
      projects.set(p.id, p);
      return p;
    },
    async deleteProject(input) {
      project(input.project_id);
      projects.delete(input.project_id);
      return { ok: true as const };
    },
    async listLibraryFiles() {
      return { files: [], progress: { total_files: 0, queued_files: 0, indexed_pages: 0, embedded_pages: 0 } };
    },
    async addLibraryFiles() {
      return { files: [] };
    },
    async deleteLibraryFile() {
      return { ok: true as const };
    },
    async readLibraryFile(input) {
      return { path: input.path, mime: 'text/plain', size: 5, encoding: 'utf8' as const, data: 'notes' };
    },
    async searchLibrary() {
      return { hits: [], mode: 'text' as const, note: null };
    },
  };
  // One project to start with, so every project route has something to act on.
  const projects = new Map<string, Project>([['lab', {
    id: 'lab', name: 'Lab', instructions: '', default_model: null, default_mode: null, default_approval_mode: null, archived: false,
    task_count: 0, file_count: 0, created_at: 0, updated_at: 0,
  }]]);
  const project = (id: string): Project => {
    const found = projects.get(id);
    if (!found) throw new NotFoundError(`No project ${id}`);
    return found;
  };
  const fakeTools = [
    { name: 'write', kind: 'edit' as const, grantable: true },
    { name: 'shell', kind: 'execute' as const, grantable: false },
  ];
  const alwaysAllowed = new Set<string>();
  let mcpConfigText = JSON.stringify({ mcpServers: { everything: { command: 'node', args: [], env: { TOKEN: '••••' } } } });
  const fakeMcpServer = () => ({
    name: 'everything', transport: 'stdio' as const, disabled: false, status: 'idle' as const, error: null,
    tools: [{ name: 'echo', model_name: 'mcp__everything__echo', description: 'Echoes' }], resources: 1, prompts: 1,
  });

  const templates = new Map<string, TemplateSummary>([['acme', fakeTemplate('acme', 'ACME')]]);
  function importFake(name: string, bytes: Buffer): TemplateSummary {
    if (bytes.length === 0) throw new ValidationError(`${name} is empty`);
    const id = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'template';
    const summary = fakeTemplate(id, name);
    templates.set(id, summary);
    return summary;
  }

  return {
    handlers,
    events: hub,
    hub,
    tasks,
    files,
    uploads,
    apiKeys,
    sabotage,
    putFile,
    dataDir,
    makeUploadDir: () => makeScratchDir(UPLOAD_DIR_PREFIX, dataDir),
    async addUploadedFiles(taskId, received) {
      task(taskId);
      const record: FakeCore['uploads'][number] = { taskId, files: [] };
      const added: FileEntry[] = [];
      for (const file of received) {
        const bytes = await readFile(file.path);
        record.files.push({ name: file.name, path: file.path, bytes });
        added.push(putFile(taskId, `source/${file.name}`, bytes, 'application/octet-stream'));
      }
      uploads.push(record);
      return added;
    },
    templates,
    messages,
    async importUploadedTemplate(file) {
      return importFake(file.name, await readFile(file.path));
    },
    // Library uploads recorded like task uploads, answered as pending files
    async addUploadedLibraryFiles(library, received) {
      if (library !== 'personal') project(library);
      const files = [];
      for (const file of received) {
        const bytes = await readFile(file.path);
        libraryUploads.push({ library, name: file.name, bytes });
        files.push({
          library, path: file.name, task_path: `library/${library === 'personal' ? 'personal' : 'project'}/${file.name}`, size: bytes.length,
          sha256: createHash('sha256').update(bytes).digest('hex'), status: 'pending' as const, pages: null, message: null, created_at: now, updated_at: now,
        });
      }
      return files;
    },
    libraryUploads,
    async close() {},
  };
}
