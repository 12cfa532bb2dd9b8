#!/usr/bin/env node
// `npm start`: build, then open the desktop window if an Electron binary can be had; otherwise
// say so and start web mode (the same renderer, served on 127.0.0.1).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = (cmd, args, opts = {}) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });

if (!process.argv.includes('--no-build')) {
  const build = run(process.execPath, [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build']);
  if (build.status !== 0) process.exit(build.status ?? 1);
}

function electronBinary() {
  // Resolving the electron package downloads its binary on first use (electron >= 45). A machine
  // without network access gets an error instead, and Folio falls back to web mode.
  const probe = spawnSync(process.execPath, ['-e', "process.stdout.write(require('electron'))"], {
    cwd: root,
    encoding: 'utf8',
    timeout: 180_000,
  });
  const path = probe.status === 0 ? probe.stdout.trim() : '';
  return path && existsSync(path) ? path : null;
}

function webMode(reason) {
  console.log(`\n${reason}\nStarting Folio in web mode instead (same app, in your browser).\n`);
  const child = spawn(process.execPath, [join(root, 'bin', 'folio.js'), 'serve', '--recover', ...process.argv.slice(2).filter((a) => a !== '--no-build')], {
    cwd: root,
    stdio: 'inherit',
  });
  child.on('exit', (code) => process.exit(code ?? 0));
}

const hasDisplay = process.platform !== 'linux' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
const binary = process.env.FOLIO_WEB === '1' ? null : electronBinary();
if (!binary) {
  webMode('No Electron binary is available on this machine (it could not be downloaded or is not installed).');
} else if (!hasDisplay) {
  webMode('Electron is installed but there is no display to open a window on.');
} else {
  const started = Date.now();
  const child = spawn(binary, [root], { cwd: root, stdio: 'inherit' });
  child.on('exit', (code) => {
    if (code !== 0 && Date.now() - started < 5000) webMode(`Electron exited at start (code ${code}).`);
    else process.exit(code ?? 0);
  });
}
