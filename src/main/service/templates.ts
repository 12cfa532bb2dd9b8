// The template methods of the service: import (a local path over IPC, an upload over HTTP), list,
// delete and preview, all on `<data>/templates` (see renderers/deck/templates).
import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { templatesDir, themesDir } from '../workspace/layout';
import type { ServiceHandlers } from '../../shared/contract';
import { FolioError, NotFoundError } from '../../shared/errors';
import { summarizeTemplate, type TemplateSummary } from '../../shared/specs/templates';

// The deck renderer and its template readers load at the first template call, not at start-up.
const store = () => import('../renderers/deck/templates/store');

/** Imports template bytes given a name; user theme names stay reserved so a spec's theme is never ambiguous. */
export async function importTemplateBytes(dataDir: string, bytes: Uint8Array, name: string): Promise<TemplateSummary> {
  const [{ loadUserThemes }, { importTemplate }] = await Promise.all([import('../renderers/deck'), store()]);
  const reservedNames = loadUserThemes(themesDir(dataDir)).themes.map((t) => t.name);
  return summarizeTemplate(await importTemplate(templatesDir(dataDir), bytes, name, { reservedNames }));
}

/** A file on disk (the desktop picker, an HTTP upload's temp file), size-checked before it is read. */
export async function importTemplateFile(dataDir: string, path: string, name = basename(path)): Promise<TemplateSummary> {
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw new Error('not a file');
    size = stat.size;
  } catch {
    throw new NotFoundError(`No file ${basename(path)}`);
  }
  const { TEMPLATE_MAX_BYTES } = await import('../renderers/deck/templates/read');
  if (size > TEMPLATE_MAX_BYTES) throw new FolioError('payload_too_large', `${name} is larger than ${TEMPLATE_MAX_BYTES / 1024 / 1024} MB; a template may be at most that.`);
  return importTemplateBytes(dataDir, readFileSync(path), name);
}

type TemplateMethods = 'listTemplates' | 'importTemplate' | 'deleteTemplate' | 'getTemplatePreview';

export function templateHandlers(dataDir: string): Pick<ServiceHandlers, TemplateMethods> {
  const dir = templatesDir(dataDir);
  return {
    async listTemplates() {
      const { templates, errors } = (await store()).listTemplates(dir);
      return { templates: templates.map(summarizeTemplate), errors };
    },
    async importTemplate(input) {
      return importTemplateFile(dataDir, input.path);
    },
    async deleteTemplate(input) {
      (await store()).deleteTemplate(dir, input.template_id);
      return { ok: true };
    },
    async getTemplatePreview(input) {
      return (await import('../renderers/deck/templates/preview')).templatePreview(dir, input.template_id, input.language);
    },
  };
}
