import { describe, expect, it } from 'vitest';
import { FolioError } from '../../shared/errors';
import type { CallResult, FolioBridge } from '../../shared/transport';
import { createIpcApi } from './ipc-transport';

function bridge(respond: (method: string, input: unknown) => CallResult, paths: Record<string, string> = {}) {
  const calls: [string, unknown][] = [];
  const b: FolioBridge = {
    call: async (method, input) => {
      calls.push([method, input]);
      return respond(method, input);
    },
    subscribeRun: () => () => undefined,
    getPathForFile: (file) => paths[(file as File).name] ?? '',
  };
  return { b, calls };
}

describe('createIpcApi', () => {
  it('unwraps results and rebuilds errors as FolioError', async () => {
    const { b } = bridge((method) =>
      method === 'getTask' ? { ok: false, error: { name: 'NotFoundError', code: 'not_found', message: 'gone' } } : { ok: true, value: { tasks: [] } },
    );
    const api = createIpcApi(b);
    await expect(api.client.listTasks({})).resolves.toEqual({ tasks: [] });
    const err = await api.client.getTask({ task_id: 't1' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FolioError);
    expect(err).toMatchObject({ code: 'not_found', message: 'gone' });
  });

  it('adds dropped files by their local paths', async () => {
    const { b, calls } = bridge(() => ({ ok: true, value: { files: [] } }), { 'a.pdf': '/home/u/a.pdf' });
    await createIpcApi(b).addFiles('t1', [new File(['x'], 'a.pdf'), new File(['y'], 'pasted.txt')]);
    expect(calls).toEqual([['addFiles', { task_id: 't1', paths: ['/home/u/a.pdf'] }]]);
  });

  it('refuses files that have no path on disk', async () => {
    const { b } = bridge(() => ({ ok: true, value: { files: [] } }));
    await expect(createIpcApi(b).addFiles('t1', [new File(['y'], 'pasted.txt')])).rejects.toMatchObject({ code: 'unsupported' });
  });

  it('decodes base64 file contents for download', async () => {
    const { b } = bridge(() => ({ ok: true, value: { path: 'artifact/a.bin', mime: 'application/octet-stream', size: 3, encoding: 'base64', data: btoa('abc') } }));
    const blob = await createIpcApi(b).downloadFile('t1', 'artifact/a.bin');
    expect(await blob.text()).toBe('abc');
    expect(blob.type).toBe('application/octet-stream');
  });
});
