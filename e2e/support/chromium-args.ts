/** How Folio's e2e tests and benches start Debian's Chromium: one list, so a timing bench and the tests it stands beside run the same browser. */
export const CHROMIUM_EXECUTABLE = process.env.FOLIO_E2E_CHROMIUM ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * What a timing bench adds. Debian's Chromium 156 starts, for every new window (each fresh context is one), a
 * renderer for its WebUI omnibox popup that loads ~270 modules: 1-2 s of CPU on this 2-core machine, during the
 * very load being timed. A person's window has long loaded its popup when they type an address, so benches turn
 * it off (either feature alone brings the WebUI renderer back). The e2e screenshots keep Chromium's default:
 * their baselines were taken with it, and a run with these flags was not shown to be faster.
 */
export const TIMING_CHROMIUM_ARGS = [...CHROMIUM_ARGS, '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup'];
