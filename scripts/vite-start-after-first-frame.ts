// Vite plugin for the renderer build: the entry's `<script type="module">` becomes a classic
// `public/start-after-first-frame.js` tag that adds it after the first frame, so the page paints
// what the HTML holds before the modules compile and run (bench/README.md, renderer notes). The
// modulepreload links stay, and the entry gets one too: they are fetched (and may be compiled)
// meanwhile, but nothing is evaluated before the frame.
import type { Plugin } from 'vite';

const MODULE_ENTRY = /<script type="module" crossorigin src="([^"]+)"><\/script>/gu;

/** The built page with its one module entry started by the starter script; throws if the page has not exactly one. */
export function startAfterFirstFrame(html: string): string {
  const entries = [...html.matchAll(MODULE_ENTRY)];
  if (entries.length !== 1) throw new Error(`start-after-first-frame: expected one module entry in index.html, found ${entries.length}`);
  const [tag, src] = entries[0];
  return html.replace(tag, () => `<script defer src="./start-after-first-frame.js" data-entry="${src}"></script>\n    <link rel="modulepreload" crossorigin href="${src}">`);
}

export function startAfterFirstFramePlugin(): Plugin {
  return {
    name: 'folio-start-after-first-frame',
    apply: 'build',
    transformIndexHtml: { order: 'post', handler: startAfterFirstFrame },
  };
}
