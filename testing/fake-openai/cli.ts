// Runs the fake server in its own process for e2e tests:
//   node --import tsx testing/fake-openai/cli.ts --port 0
// prints `FAKE_OPENAI_URL=http://127.0.0.1:PORT/v1` on one line; script it over /__control/*.
import { startFakeOpenAI } from './server';

function parsePort(argv: string[]): number {
  const i = argv.indexOf('--port');
  const value = i >= 0 ? argv[i + 1] : undefined;
  if (value === undefined) return 0;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`fake-openai: invalid --port ${value}\n`);
    process.exit(64);
  }
  return port;
}

const fake = await startFakeOpenAI({ port: parsePort(process.argv.slice(2)) });
process.stdout.write(`FAKE_OPENAI_URL=${fake.url}\n`);

const stop = (): void => {
  void fake.close().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
