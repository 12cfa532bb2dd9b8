import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { folioApi, startFolio, stopFolio } from '../e2e/support/folio-server';
const dataDir = mkdtempSync(join(tmpdir(), 'pp-'));
const server = await startFolio(dataDir);
for (let i = 0; i < 20; i++) await folioApi(server, 'POST', '/v1/tasks', { mode: 'general', title: 't' + i });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
for (let k = 0; k < 4; k++) {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto(server.appUrl);
  await page.waitForSelector('[data-testid="task-item"]');
  const t = await page.evaluate(`JSON.stringify({fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime|0, dcl: performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd|0, res: performance.getEntriesByType("resource").map(e=>e.name.slice(22,38)+' '+Math.round(e.startTime)+'-'+Math.round(e.responseEnd)).join(' | ')})`);
  if (k) console.log(t);
  await ctx.close();
}
await browser.close(); await stopFolio();
