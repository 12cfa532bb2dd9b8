// Templates through the real core and the real HTTP server: `POST /v1/templates` (multipart) imports,
// `GET /v1/templates` lists, the preview plans sample slides on it, render_deck offers it to the
// agent, `DELETE` removes it; refused files come back as 400 with the reason.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTemplate, FIXTURE } from '../renderers/deck/templates/fixture.test-support';
import { toolCatalog } from '../tools/catalog';
import { startHttpServer, type RunningHttpServer } from '../transport/http';
import { makeCore, makeDataDir } from './core-test-kit';
import { type Core } from './create-core';
import { templatesDir, themesDir } from '../workspace/layout';

const TOKEN = 'test-token-templates-0123456789';
let dataDir: string;
let core: Core;
let srv: RunningHttpServer;

beforeAll(async () => {
  dataDir = makeDataDir('http://127.0.0.1:9');
  core = await makeCore(dataDir);
  srv = await startHttpServer(core, { token: TOKEN });
});
afterAll(async () => {
  await srv.close();
  await core.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function api(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${srv.url}${path}`, { ...init, headers: { authorization: `Bearer ${TOKEN}`, ...(init.headers ?? {}) } });
}

function form(files: { name: string; bytes: Uint8Array }[]): FormData {
  const data = new FormData();
  for (const f of files) data.append('file', new Blob([new Uint8Array(f.bytes)]), f.name);
  return data;
}

describe('templates over HTTP', () => {
  it('imports a .potx, lists it, previews it, offers it to render_deck and deletes it', async () => {
    const bytes = await buildTemplate({ potx: true });
    const res = await api('/v1/templates', { method: 'POST', body: form([{ name: 'ACME 品牌.potx', bytes }]) });
    const body = (await res.json()) as { id: string; name: string; layouts: { name: string }[]; warnings: string[] };
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(body.id).toBe('acme');
    expect(body.name).toBe(FIXTURE.name);
    expect(body.layouts.map((l) => l.name)).toContain('ACME Content');
    expect(body.warnings.length).toBeGreaterThan(0);
    expect(existsSync(join(templatesDir(dataDir), 'acme', 'original.potx'))).toBe(true);

    const list = (await (await api('/v1/templates')).json()) as { templates: { id: string; palette: { accent: string }; colours: Record<string, string> }[] };
    expect(list.templates.map((t) => [t.id, t.palette.accent, t.colours.accent1])).toEqual([['acme', FIXTURE.scheme.accent2, FIXTURE.scheme.accent1]]);

    const preview = (await (await api('/v1/templates/acme/preview')).json()) as { plan: { slides: unknown[]; theme: string }; layouts: string[]; logo: { data_url: string } | null };
    expect(preview.plan.theme).toBe('acme');
    expect(preview.plan.slides.length).toBe(preview.layouts.length);
    expect(preview.layouts).toContain('ACME Title');
    expect(preview.logo?.data_url).toBe(`data:image/png;base64,${FIXTURE.logoPng.toString('base64')}`);

    const renderDeck = toolCatalog({ themesDir: themesDir(dataDir), templatesDir: templatesDir(dataDir) }).find((t) => t.name === 'render_deck');
    expect(renderDeck?.description).toContain('acme');

    expect((await api('/v1/templates/acme', { method: 'DELETE' })).status).toBe(200);
    expect(((await (await api('/v1/templates')).json()) as { templates: unknown[] }).templates).toEqual([]);
    expect((await api('/v1/templates/acme', { method: 'DELETE' })).status).toBe(404);
  });

  it('refuses what is not a template, and more than one file, saying why', async () => {
    const bad = await api('/v1/templates', { method: 'POST', body: form([{ name: 'notes.pptx', bytes: new TextEncoder().encode('# not a deck') }]) });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/not a PowerPoint file/);
    const bytes = await buildTemplate();
    const two = await api('/v1/templates', { method: 'POST', body: form([{ name: 'a.pptx', bytes }, { name: 'b.pptx', bytes }]) });
    expect(two.status).toBe(400);
    expect(((await (await api('/v1/templates')).json()) as { templates: unknown[] }).templates).toEqual([]);
  });
});
