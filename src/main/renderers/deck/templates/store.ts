// Imported templates on disk: `<templates>/<id>/` holds the original file (`original.pptx` or
// `.potx`) and `template.json` (the record: what was read, the mapped theme, the warnings). An
// import is written into a hidden folder first and renamed into place, so a crash never leaves a
// half-imported template that lists.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NotFoundError, ValidationError } from '../../../../shared/errors';
import { TemplateId, TemplateRecord, type UnreadableTemplate } from '../../../../shared/specs/templates';
import { BUILTIN_THEMES } from '../../../../shared/specs/themes';
import { readTemplate } from './read';
import { templateTheme } from './theme-map';
import { backdropLayers } from './backdrop-layers';
import { samplePicture } from './picture-samples';
import { loadZip } from '../zip';

export const TEMPLATE_JSON = 'template.json';

/** An ASCII id from the file's name ("ACME Brand 2025.potx" → "acme-brand-2025"), unique among templates and themes. */
export function templateIdFor(fileName: string, taken: (id: string) => boolean): string {
  const stem = fileName
    .replace(/\.(pptx|potx|pptm|potm)$/i, '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 32)
    .replace(/-+$/, '');
  const base = /^[a-z0-9]/.test(stem) ? stem : `template${stem ? `-${stem}` : ''}`.slice(0, 32);
  for (let n = 1; ; n++) {
    const id = n === 1 ? base : `${base}-${n}`;
    if (!taken(id)) return id;
  }
}

export interface ImportOptions {
  /** Theme names a template id may not take (user themes); built-in names are always reserved. */
  reservedNames?: readonly string[];
  now?: () => number;
}

/** Pictures text may sit on (a photo background, a large picture behind a placeholder) get their colours sampled. */
async function withPictureSamples(bytes: Uint8Array, record: TemplateRecord): Promise<TemplateRecord> {
  const template = record.theme.template;
  if (!template) return record;
  const parts = { content: record.mapping.content, title: record.mapping.title, section: record.mapping.section } as const;
  const kinds = (Object.keys(parts) as (keyof typeof parts)[]).filter((k) => template.backdrops[k].some((b) => b.color === null));
  if (kinds.length === 0) return record;
  const layers = await backdropLayers(await loadZip(bytes), record, kinds.map((k) => parts[k]));
  const near = (a: number, b: number): boolean => Math.abs(a - b) < 1e-4;
  const backdrops = { ...template.backdrops };
  for (const kind of kinds) {
    const painted = layers.get(parts[kind]) ?? [];
    backdrops[kind] = template.backdrops[kind].map((b) => {
      if (b.color !== null) return b;
      const layer = painted.find((l) => l.image && near(l.x, b.x) && near(l.y, b.y) && near(l.w, b.w) && near(l.h, b.h));
      const m = layer?.image ? /^data:image\/[a-z+]+;base64,(.*)$/.exec(layer.image) : null;
      const samples = m ? samplePicture(Buffer.from(m[1] ?? '', 'base64')) : undefined;
      return samples ? { ...b, samples } : b;
    });
  }
  return { ...record, theme: { ...record.theme, template: { ...template, backdrops } } };
}

export async function importTemplate(dir: string, bytes: Uint8Array, fileName: string, opts: ImportOptions = {}): Promise<TemplateRecord> {
  const parsed = await readTemplate(bytes, fileName);
  mkdirSync(dir, { recursive: true });
  const reserved = new Set([...BUILTIN_THEMES.map((t) => t.name), ...(opts.reservedNames ?? [])]);
  const id = templateIdFor(fileName, (candidate) => reserved.has(candidate) || existsSync(join(dir, candidate)));
  const warnings = [...parsed.warnings];
  const theme = templateTheme(id, parsed.name, parsed, warnings);
  const { scheme: _scheme, contentBackground: _c, titleBackground: _t, textSlot: _s, ...kept } = parsed;
  const record = await withPictureSamples(bytes, TemplateRecord.parse({ ...kept, id, file_name: fileName.slice(0, 300), created_at: (opts.now ?? Date.now)(), theme, warnings }));

  const tmp = mkdtempSync(join(dir, '.import-'));
  try {
    writeFileSync(join(tmp, originalName(fileName)), bytes);
    writeFileSync(join(tmp, TEMPLATE_JSON), `${JSON.stringify(record, null, 2)}\n`);
    renameSync(tmp, join(dir, id));
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
  return record;
}

function originalName(fileName: string): string {
  return /\.potx$/i.test(fileName) ? 'original.potx' : 'original.pptx';
}

export interface StoredTemplates {
  templates: TemplateRecord[];
  /** Folders whose record could not be read (named, so the person can remove them). */
  errors: UnreadableTemplate[];
}

export function listTemplates(dir: string): StoredTemplates {
  let names: string[];
  try {
    names = readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory() && !d.name.startsWith('.')).map((d) => d.name).sort();
  } catch {
    return { templates: [], errors: [] };
  }
  const templates: TemplateRecord[] = [];
  const errors: UnreadableTemplate[] = [];
  for (const name of names) {
    try {
      const record = TemplateRecord.parse(JSON.parse(readFileSync(join(dir, name, TEMPLATE_JSON), 'utf8')));
      if (record.id !== name) throw new Error(`its id is "${record.id}"`);
      templates.push(record);
    } catch (err) {
      errors.push({ folder: `templates/${name}`, detail: err instanceof Error ? (err.message.split('\n')[0] ?? '') : String(err) });
    }
  }
  templates.sort((a, b) => a.created_at - b.created_at);
  return { templates, errors };
}

function checkedId(id: string): string {
  if (!TemplateId.safeParse(id).success) throw new ValidationError(`"${id.slice(0, 60)}" is not a template id`);
  return id;
}

/** The record and the original file's bytes (what a deck's master is taken from). */
export function loadTemplate(dir: string, id: string): { record: TemplateRecord; bytes: Buffer } {
  const folder = join(dir, checkedId(id));
  const record = listTemplates(dir).templates.find((t) => t.id === id);
  if (!record) throw new NotFoundError(`No template "${id}"`);
  const original = ['original.pptx', 'original.potx'].map((n) => join(folder, n)).find((p) => existsSync(p));
  if (!original) throw new NotFoundError(`Template "${id}" has lost its original file; import it again.`);
  return { record, bytes: readFileSync(original) };
}

export function deleteTemplate(dir: string, id: string): void {
  const folder = join(dir, checkedId(id));
  if (!existsSync(join(folder, TEMPLATE_JSON))) throw new NotFoundError(`No template "${id}"`);
  // Renamed away first, so a listing never sees a half-deleted template.
  const doomed = join(dir, `.deleted-${id}-${process.pid}-${Date.now()}`);
  renameSync(folder, doomed);
  rmSync(doomed, { recursive: true, force: true });
}
