// Child process for upload-crash.test.ts: web mode's HTTP server around the fake core, so a request
// that crashes the server shows up as this process exiting. Prints the port once listening.
import { createFakeCore } from '../fake-core.test-support';
import { startHttpServer } from './index';

const token = process.argv[2];
if (token === undefined) throw new Error('usage: upload-server.fixture <token>');

const core = createFakeCore();
const task = await core.handlers.createTask({ mode: 'general' });
const server = await startHttpServer(core, { token, maxUploadBytes: 64 * 1024, onInternalError: () => undefined });
process.stdout.write(`${JSON.stringify({ port: server.port, taskId: task.id })}\n`);
// Bounded so an orphaned child cannot outlive its test run.
setTimeout(() => process.exit(0), 120_000).unref();
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
