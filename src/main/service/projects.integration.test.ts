// Projects and libraries through the core: handlers over a real store and real library
// folders, real PDFs indexed by the worker pool, and a task of the project that searches, reads and
// cites a library page through the fake model, with the project's instructions in its request.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FakeOpenAI } from '../../../testing/fake-openai/server';
import { installedDebianPdfs, DEBIAN_PDFS } from '../sources/testing';
import { collect } from './core-test-kit';
import { useFakeModelCores } from './fake-model-cores.test-support';
import { ProjectArchivedError } from './projects-service';

let model: FakeOpenAI;
const { open } = useFakeModelCores((fake) => (model = fake));

const english = DEBIAN_PDFS.find((p) => p.name === 'libtasn1')!;
const chinese = DEBIAN_PDFS.find((p) => p.name === 'lshort-zh-cn')!;
const installed = new Set(installedDebianPdfs().map((p) => p.name));
function skipNote(pdf: typeof english): string {
  return installed.has(pdf.name) ? '' : ` (skipped: ${pdf.path} is missing; apt-get install ${pdf.debianPackage})`;
}

type Msg = { role: string; content: string | null; tool_call_id?: string };
function chatRequests(): { messages: Msg[]; tools?: { function: { name: string } }[] }[] {
  return model.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as { messages: Msg[]; tools?: { function: { name: string } }[] });
}

describe('projects through the core', () => {
  it('creates, lists, archives and deletes projects; tasks take the defaults, move in and out, filter by project', async () => {
    const core = await open();
    const h = core.handlers;
    const p = await h.createProject({ name: 'NSFC 2027', instructions: 'Our lab is the Heat Lab.', default_model: 'fake.main', default_approval_mode: 'auto-edit' });
    expect(p).toMatchObject({ name: 'NSFC 2027', archived: false, task_count: 0, file_count: 0 });
    const t = await h.createTask({ mode: 'proposal', project_id: p.id });
    expect(t).toMatchObject({ project_id: p.id, model: 'fake.main', approval_mode: 'auto-edit', mode: 'proposal' });
    const loose = await h.createTask({ mode: 'general', model: 'other' });
    expect(loose.project_id).toBeNull();
    expect((await h.listTasks({ project_id: p.id })).tasks.map((x) => x.id)).toEqual([t.id]);
    expect((await h.listTasks({ project_id: 'none' })).tasks.map((x) => x.id)).toEqual([loose.id]);
    expect((await h.getProject({ project_id: p.id })).task_count).toBe(1);

    await h.updateTask({ task_id: loose.id, project_id: p.id });
    expect((await h.listTasks({ project_id: p.id })).tasks).toHaveLength(2);
    await h.updateTask({ task_id: loose.id, project_id: null });
    expect((await h.listTasks({ project_id: 'none' })).tasks.map((x) => x.id)).toEqual([loose.id]);

    await expect(h.createTask({ mode: 'general', project_id: 'p_missing' })).rejects.toMatchObject({ code: 'not_found' });
    await h.updateProject({ project_id: p.id, archived: true });
    expect((await h.listProjects({})).projects).toEqual([]);
    expect((await h.listProjects({ archived: 'true' })).projects.map((x) => x.id)).toEqual([p.id]);
    await expect(h.createTask({ mode: 'general', project_id: p.id })).rejects.toBeInstanceOf(ProjectArchivedError);
    await expect(h.updateTask({ task_id: loose.id, project_id: p.id })).rejects.toMatchObject({ code: 'conflict' });

    // Deleting a project takes its library with it.
    const note = join(core.dataDir, 'note.txt');
    writeFileSync(note, 'a note about thermal comfort\n');
    await h.addLibraryFiles({ project_id: p.id, paths: [note] });
    expect(existsSync(join(core.dataDir, 'library', p.id, 'note.txt'))).toBe(true);
    await h.deleteProject({ project_id: p.id });
    await expect(h.getProject({ project_id: p.id })).rejects.toMatchObject({ code: 'not_found' });
    expect(existsSync(join(core.dataDir, 'library', p.id))).toBe(false);
    // Its tasks stay, without a project.
    expect((await h.getTask({ task_id: t.id })).project_id).toBeNull();
    expect(await core.ctx.store.library.all()).toEqual([]);
  });

  it('adds a file once: identical bytes are a no-op, another file of the same name gets a suffix', async () => {
    const core = await open();
    const h = core.handlers;
    const a = join(core.dataDir, 'a', 'notes.txt');
    const b = join(core.dataDir, 'b', 'notes.txt');
    for (const [path, text] of [[a, 'first version of the notes\n'], [b, 'another file, same name\n']] as const) {
      (await import('node:fs')).mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(path, text);
    }
    const first = await h.addLibraryFiles({ project_id: 'personal', paths: [a] });
    const again = await h.addLibraryFiles({ project_id: 'personal', paths: [a] });
    const other = await h.addLibraryFiles({ project_id: 'personal', paths: [b] });
    expect(first.files[0]).toMatchObject({ library: 'personal', path: 'notes.txt', task_path: 'library/personal/notes.txt' });
    expect(again.files[0]?.path).toBe('notes.txt');
    expect(other.files[0]?.path).toBe('notes-2.txt');
    await core.indexer.idle();
    const listed = await h.listLibraryFiles({ project_id: 'personal' });
    expect(listed.files.map((f) => [f.path, f.status, f.pages])).toEqual([['notes-2.txt', 'ok', 1], ['notes.txt', 'ok', 1]]);
    expect(listed.progress).toEqual({ total_files: 2, queued_files: 0, indexed_pages: 2, embedded_pages: 0 });
    // A search hit opens its file: the bytes of a listed file, nothing outside the library.
    expect(await h.readLibraryFile({ project_id: 'personal', path: 'notes-2.txt' })).toEqual({ path: 'notes-2.txt', mime: 'text/plain', size: 24, encoding: 'utf8', data: 'another file, same name\n' });
    await expect(h.readLibraryFile({ project_id: 'personal', path: 'missing.txt' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(h.readLibraryFile({ project_id: 'personal', path: '../../secrets.txt' })).rejects.toMatchObject({ code: 'not_found' });
    await h.deleteLibraryFile({ project_id: 'personal', path: 'notes.txt' });
    expect((await h.searchLibrary({ project_id: 'personal', q: 'first version' })).hits).toEqual([]);
    expect((await h.searchLibrary({ project_id: 'personal', q: 'same name' })).hits.map((x) => x.path)).toEqual(['notes-2.txt']);
    await expect(h.deleteLibraryFile({ project_id: 'personal', path: 'notes.txt' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it.skipIf(!installed.has(english.name))(`a task of the project searches the library, reads the page and cites it; the instructions reach the model${skipNote(english)}`, async () => {
    const core = await open();
    const h = core.handlers;
    const p = await h.createProject({ name: 'ASN.1 study', instructions: '始终使用 GB/T 7714 引用格式。 Always call the lab "Heat Lab".' });
    await h.addLibraryFiles({ project_id: p.id, paths: [english.path] });
    await core.indexer.idle();
    const [file] = (await h.listLibraryFiles({ project_id: p.id })).files;
    expect(file).toMatchObject({ status: 'ok', path: 'libtasn1.pdf', task_path: 'library/project/libtasn1.pdf' });
    expect(file?.pages).toBeGreaterThan(30);

    const task = await h.createTask({ mode: 'general', project_id: p.id });
    // The write below is refused by the tool itself, not by the person.
    await h.updateTask({ task_id: task.id, approval_mode: 'auto-edit' });
    model.script([
      { toolCalls: [{ id: 'c_search', name: 'search_library', arguments: JSON.stringify({ query: english.words[1] }) }] },
      { toolCalls: [{ id: 'c_read', name: 'read', arguments: JSON.stringify({ path: 'library/project/libtasn1.pdf', pages: String(english.page) }) }] },
      { toolCalls: [{ id: 'c_write', name: 'write', arguments: JSON.stringify({ path: 'library/project/x.md', content: 'no' }) }] },
      { text: `The parser is case sensitive (Source: libtasn1.pdf, p. ${english.page}).` },
    ]);
    const { run_id } = await h.sendMessage({ task_id: task.id, content: 'Is the ASN.1 parser case sensitive?' });
    const events = await collect(core, task.id, run_id);
    expect(events.at(-1)).toMatchObject({ type: 'run_finished', reason: 'done' });

    const requests = chatRequests();
    const system = requests[0]?.messages[0]?.content ?? '';
    expect(system).toContain('## Project: ASN.1 study');
    expect(system).toContain('始终使用 GB/T 7714 引用格式。 Always call the lab "Heat Lab".');
    expect(system).toContain('library/project/libtasn1.pdf');
    expect(requests[0]?.tools?.map((t) => t.function.name)).toContain('search_library');

    // Found by call id, not by request index: a request retried after a provider fault repeats the one before.
    const tool = (id: string) => requests.flatMap((r) => r.messages).find((m) => m.role === 'tool' && m.tool_call_id === id)?.content ?? '';
    const hits = tool('c_search');
    // Inside the untrusted marker: the snippets are the library file's own text.
    expect(hits).toMatch(new RegExp(`^<untrusted_content source="search_library: [^"]*">\\n1\\. library/project/libtasn1\\.pdf — page ${english.page}\\n`, 'u'));
    expect(hits).toContain(`cite: Source: libtasn1.pdf, p. ${english.page}`);
    const page = tool('c_read');
    expect(page).toContain(`<!-- page ${english.page} -->`);
    expect(page).toContain(english.words[1]);
    expect(tool('c_write')).toMatch(/library\/ is read-only/u);
    expect(existsSync(join(core.dataDir, 'tasks', task.id, 'library'))).toBe(false);
  });

  it('a task outside the project cannot read its library, and is not offered search_library without library files', async () => {
    const core = await open();
    const h = core.handlers;
    const p = await h.createProject({ name: 'Secret' });
    const src = join(core.dataDir, 'secret.txt');
    writeFileSync(src, 'the secret formula is forty-two\n');
    await h.addLibraryFiles({ project_id: p.id, paths: [src] });
    await core.indexer.idle();
    const other = await h.createProject({ name: 'Other' });
    for (const project_id of [other.id, null]) {
      const task = await h.createTask({ mode: 'general', project_id });
      model.reset();
      const calls = [
        { id: 'c_read', name: 'read', arguments: JSON.stringify({ path: 'library/project/secret.txt' }) },
        { id: 'c_grep', name: 'grep', arguments: JSON.stringify({ pattern: 'secret', path: 'library/project' }) },
      ];
      // In a project, commands naming library paths are refused before anything runs (no approval asked).
      if (project_id) calls.push({ id: 'c_shell', name: 'shell', arguments: JSON.stringify({ command: 'cp work/x.md library/project/secret.txt' }) });
      model.script([{ toolCalls: calls }, { text: 'I cannot see it.' }]);
      const { run_id } = await h.sendMessage({ task_id: task.id, content: 'read the secret' });
      await collect(core, task.id, run_id);
      const requests = chatRequests();
      expect(requests[0]?.tools?.map((t) => t.function.name)).not.toContain('search_library');
      const results = requests[1]?.messages.filter((m) => m.role === 'tool').map((m) => m.content ?? '') ?? [];
      expect(results).toHaveLength(calls.length);
      for (const r of results) expect(r).not.toContain('forty-two');
      expect(results.join('\n')).toMatch(project_id ? /not found in the library/u : /no library/u);
      if (project_id) expect(results[2]).toMatch(/Blocked: commands cannot use library\/ paths/u);
    }
  });

  it.skipIf(!installed.has(chinese.name))(`indexes the CID-font Chinese book; a Chinese search finds its page and cites it in Chinese${skipNote(chinese)}`, async () => {
    const core = await open();
    const h = core.handlers;
    await h.addLibraryFiles({ project_id: 'personal', paths: [chinese.path] });
    await core.indexer.idle();
    const [file] = (await h.listLibraryFiles({ project_id: 'personal' })).files;
    expect(file).toMatchObject({ status: 'ok', pages: 139 });
    const result = await h.searchLibrary({ project_id: 'personal', q: chinese.words[1] });
    expect(result.hits[0]).toMatchObject({ path: 'lshort-zh-cn.pdf', page: chinese.page });
    const task = await h.createTask({ mode: 'general' });
    model.script([{ toolCalls: [{ id: 'c1', name: 'search_library', arguments: JSON.stringify({ query: chinese.words[1] }) }] }, { text: '好。' }]);
    const { run_id } = await h.sendMessage({ task_id: task.id, content: '查一下' });
    await collect(core, task.id, run_id);
    const answer = chatRequests().flatMap((r) => r.messages).find((m) => m.tool_call_id === 'c1')?.content ?? '';
    expect(answer).toContain(`cite: 来源：lshort-zh-cn.pdf 第 ${chinese.page} 页`);
  });
});
