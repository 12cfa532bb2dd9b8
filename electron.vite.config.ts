import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import { methodTablePlugin } from './scripts/vite-method-table';

// Three builds from one config: main (the Electron composition root plus the plain-Node CLI that
// serves web mode), the preload bridge, and the renderer (shared by desktop and web mode).
export default defineConfig({
  main: {
    build: {
      // zod is bundled, not loaded from node_modules: the contract needs it at start-up, and Node 20
      // resolves, reads and compiles its ~100 module files one by one (a third of `folio serve`'s
      // start-up); one chunk is parsed at once. Other packages load at first use (see the notes in
      // bench/README.md) and stay external.
      externalizeDeps: { exclude: ['zod'] },
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          cli: resolve(__dirname, 'src/main/cli/main.ts'),
          // Source extraction runs in a worker thread; it is its own entry so the worker can load it.
          'extract-worker': resolve(__dirname, 'src/main/sources/extract-worker.ts'),
          // web_fetch converts HTML in a worker thread too (a slow page must not freeze the app).
          'html-worker': resolve(__dirname, 'src/main/tools/net/html-worker.ts'),
          // A large WAL is copied back into the database off the main thread (store/checkpoints.ts).
          'checkpoint-worker': resolve(__dirname, 'src/main/store/checkpoint-worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      // A sandboxed preload must be one CommonJS file with no npm imports at run time.
      rollupOptions: { input: { index: resolve(__dirname, 'src/preload/index.ts') }, output: { format: 'cjs', entryFileNames: '[name].cjs' } },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    build: {
      minify: true,
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } },
    },
    // The contract's routes as a literal: the first chunk needs them, not zod (scripts/vite-method-table.ts).
    plugins: [react(), methodTablePlugin()],
  },
});
