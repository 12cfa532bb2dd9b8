// Starts the app's modules after the page's first frame. The first open's HTML already holds the
// task list and the stylesheet (transport/http/first-page.ts), so that frame shows the list; the
// modules' compile and evaluation (~200 ms of main thread) would otherwise run before it. The entry
// is this tag's data-entry (the build writes it: scripts/vite-start-after-first-frame.ts); a file,
// not an inline script, because the CSP allows none. The page's modulepreload links (the entry's
// among them) still fetch the modules meanwhile.
(function () {
  var tag = document.currentScript;
  var entry = tag && tag.getAttribute('data-entry');
  if (!entry) return;
  var started = false;
  function start() {
    if (started) return;
    started = true;
    var script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = entry;
    document.head.appendChild(script);
  }
  // A hidden page (the desktop window before it is shown) draws no frame for a person: start now.
  if (document.visibilityState === 'hidden') return start();
  // rAF runs just before the frame is drawn, the task after it.
  requestAnimationFrame(function () {
    setTimeout(start, 0);
  });
  // A page that produces no frame (occluded, throttled) still starts.
  setTimeout(start, 1000);
})();
