// Binds a server built by createHttpServer to a port and hands back its url, close and drain.
import type { AddressInfo } from 'node:net';
import { createHttpServer } from './server';
import type { CoreResolver, RunningHttpServer, StartHttpServerOptions } from './server-options';
import type { FolioCore } from '../../service/ports';

export async function startHttpServer(core: FolioCore | CoreResolver, opts: StartHttpServerOptions): Promise<RunningHttpServer> {
  if (opts.tenancy === undefined && opts.host !== undefined && opts.host !== '127.0.0.1') throw new Error('The HTTP server only binds 127.0.0.1');
  const server = createHttpServer(core, opts);
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    server,
    drain: (drainOpts) => server.drain(drainOpts),
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (!server.listening) {
          server.closeAllConnections();
          resolve();
          return;
        }
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
