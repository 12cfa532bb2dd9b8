// End-to-end tests drive the web build served by `folio serve` in Debian's Chromium (never a
// downloaded browser). Each worker starts the servers it needs (e2e/support/fixtures.ts).
import { availableParallelism } from 'node:os';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from './e2e/support/chromium-args';

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/support/global-setup.ts',
  // Each worker has its own Folio server, data folder and fake model, so any tests (the two languages
  // of the screens spec too) can run side by side. One worker per two cores: a worker's Chromium (its
  // browser, GPU and page processes), Folio and LibreOffice keep about two cores busy, and on a
  // two-core machine a second worker made the suite slower, not faster (9.2 min against 7.9).
  workers: Math.max(1, Math.floor(availableParallelism() / 2)),
  fullyParallel: true,
  retries: 0,
  timeout: 90_000,
  expect: {
    timeout: 15_000,
    // Screens are compared with reviewed baselines (e2e/support/screens.ts); a little antialiasing
    // noise passes, a moved or restyled element does not.
    toHaveScreenshot: { maxDiffPixels: 0, animations: 'disabled', caret: 'hide', scale: 'css', stylePath: './e2e/support/screenshot.css' },
  },
  snapshotPathTemplate: '{testDir}/__screenshots__/{testFileName}/{arg}{ext}',
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  outputDir: 'test-results',
  use: {
    browserName: 'chromium',
    // Pinned so "System" language resolves to English regardless of the machine.
    locale: 'en-US',
    // A failed test keeps its trace (each action's DOM, network, console) but no screencast: recording
    // the screen all through every test made the suite about a third slower.
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM_EXECUTABLE,
      args: CHROMIUM_ARGS,
    },
  },
});
