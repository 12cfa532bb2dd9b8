// The contract's MCP methods: servers and their status, the config with secrets redacted (and kept
// when saved back redacted), restart, resources attached to a task as sources, prompts rendered for
// the composer. The connections themselves live in mcp/manager.ts.
import type { OutboundAudit } from '../net/outbound-audit';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FileEntry, ServiceHandlers } from '../../shared/contract';
import { NotFoundError } from '../../shared/errors';
import { checkServers, mcpConfigPath, parseRawConfig, readMcpConfigFile } from '../mcp/config';
import type { McpManager } from '../mcp/manager';
import { redactConfig, storeSecrets, writeConfigFile } from '../mcp/secrets';
import type { KeyStore } from '../models';
import { declaredKind } from '../sources/kinds';
import type { StorePort } from '../store/port';
import { addSourceFile } from './task-files';
import { makeScratchDirSync, removeScratchDirSync } from '../workspace/scratch';

type McpMethods =
  | 'listMcpServers'
  | 'getMcpConfig'
  | 'saveMcpConfig'
  | 'restartMcpServer'
  | 'listMcpResources'
  | 'attachMcpResource'
  | 'listMcpPrompts'
  | 'getMcpPrompt';

export interface McpServiceContext {
  store: StorePort;
  dataDir: string;
  keys: KeyStore;
  mcp: McpManager;
  /** Who the servers' requests made for the caller are charged to (the team service's audit rows). */
  outbound: OutboundAudit | null;
}

const EXTENSION_BY_MIME: Record<string, string> = {
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'text/csv': 'csv',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/**
 * The file name a resource is saved under in source/: its own name when that already says a source
 * format; text otherwise becomes `.txt` (never `.md`, which could pass for another source's cache).
 */
export function resourceFileName(name: string, mimeType: string | null, isText: boolean): string {
  const base = name.replace(/[\\/]+$/u, '').split(/[\\/]/u).pop() || 'resource';
  const kind = declaredKind(base);
  if (isText) return kind === 'text' || kind === 'csv' || kind === 'tsv' ? base : `${base}.txt`;
  if (kind !== null) return base;
  const ext = mimeType ? EXTENSION_BY_MIME[mimeType.split(';')[0].trim().toLowerCase()] : undefined;
  return `${base}.${ext ?? 'bin'}`;
}

export function createMcpHandlers(
  ctx: McpServiceContext,
  hooks: { onSourcesAdded?: (taskId: string, files: FileEntry[]) => void } = {},
): Pick<ServiceHandlers, McpMethods> {
  const path = mcpConfigPath(ctx.dataDir);
  const configView = () => {
    const { raw, config } = readMcpConfigFile(path);
    return { path, text: JSON.stringify(redactConfig(raw), null, 2), problems: config.problems };
  };
  return {
    async listMcpServers() {
      return ctx.mcp.list();
    },
    async getMcpConfig() {
      return configView();
    },
    async saveMcpConfig(input) {
      // Not JSON, or not {"mcpServers": {...}}: refused (McpConfigError); bad entries are saved and reported.
      const next = parseRawConfig(input.text);
      const previous = readMcpConfigFile(path).raw;
      const stored = storeSecrets(next, previous, ctx.keys);
      writeConfigFile(path, stored.raw);
      const view = configView();
      // Reading the config stops servers whose entry changed; they start again on next use.
      ctx.mcp.config();
      return { ...view, problems: [...checkServers(stored.raw).problems, ...stored.problems] };
    },
    async restartMcpServer(input) {
      return ctx.mcp.restart(input.name, ctx.outbound);
    },
    async listMcpResources(input) {
      return { resources: await ctx.mcp.listResources(input.name, ctx.outbound) };
    },
    async attachMcpResource(input) {
      if (!(await ctx.store.tasks.get(input.task_id))) throw new NotFoundError(`No task ${input.task_id}`);
      const content = await ctx.mcp.readResource(input.server, input.uri, ctx.outbound);
      const listed = (await ctx.mcp.listResources(input.server, ctx.outbound).catch(() => [])).find((r) => r.uri === input.uri);
      const name = resourceFileName(listed?.name ?? decodeURIComponent(input.uri.split(/[?#]/u)[0]), content.mimeType, content.text !== null);
      // Written to a private temp folder, then added like any dropped file (free name, no link followed).
      const dir = makeScratchDirSync('folio-mcp-resource-', ctx.dataDir);
      try {
        const temp = join(dir, 'resource');
        writeFileSync(temp, content.text ?? content.bytes ?? '', { mode: 0o600 });
        const file = await addSourceFile(ctx.store, ctx.dataDir, input.task_id, temp, name);
        hooks.onSourcesAdded?.(input.task_id, [file]);
        return { file };
      } finally {
        removeScratchDirSync(dir);
      }
    },
    async listMcpPrompts(input) {
      return { prompts: await ctx.mcp.listPrompts(input.name, ctx.outbound) };
    },
    async getMcpPrompt(input) {
      return { text: await ctx.mcp.renderPrompt(input.name, input.prompt, input.arguments ?? {}, ctx.outbound) };
    },
  };
}
