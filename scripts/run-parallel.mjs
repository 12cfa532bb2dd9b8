#!/usr/bin/env node
// `node scripts/run-parallel.mjs typecheck lint build`: runs those npm scripts at once (on two cores
// the typecheck and the build fit beside the lint, which is single-threaded and the longest), prints
// each one's output whole when it ends so the logs do not interleave, and fails if any failed,
// naming which.
import { spawn } from 'node:child_process';

const names = process.argv.slice(2);
if (names.length === 0) {
  process.stderr.write('usage: node scripts/run-parallel.mjs <npm script>...\n');
  process.exit(2);
}
const npm = process.env.npm_execpath;

function run(name) {
  const started = Date.now();
  // Under `npm run`, npm_execpath is npm's own CLI: run it with this node, as npm does.
  const child = npm ? spawn(process.execPath, [npm, 'run', name], { stdio: ['ignore', 'pipe', 'pipe'] }) : spawn('npm', ['run', name], { stdio: ['ignore', 'pipe', 'pipe'] });
  const chunks = [];
  child.stdout.on('data', (chunk) => chunks.push(chunk));
  child.stderr.on('data', (chunk) => chunks.push(chunk));
  return new Promise((resolve) => {
    child.on('error', (err) => chunks.push(Buffer.from(`${err.message}\n`)));
    child.on('close', (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      const ok = code === 0;
      process.stdout.write(Buffer.concat(chunks));
      process.stdout.write(`\n[${name}] ${ok ? 'passed' : `failed (${signal ?? `exit ${code}`})`} in ${seconds} s\n\n`);
      resolve(ok);
    });
  });
}

const results = await Promise.all(names.map(run));
const failed = names.filter((_, i) => !results[i]);
if (failed.length > 0) {
  process.stderr.write(`failed: ${failed.join(', ')}\n`);
  process.exit(1);
}
