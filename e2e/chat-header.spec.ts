// The task's controls beside the open Results panel: the model picker in the composer shows a
// typical model name whole at 1280 px; where no room is left it ends the name with an ellipsis and
// names it whole in its tooltip (a native select otherwise cuts its text mid-word, "Default (fake-mod",
// which no DOM check notices); the header's controls keep to one row inside the header.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Page } from '@playwright/test';
import { createTask, expect, test } from './support/fixtures';
import { fakeProfileYaml } from './support/fake-model';
import { folioApi, startIsolatedFolio } from './support/folio-server';

const SIZES = [
  { width: 1280, height: 800 },
  { width: 900, height: 700 },
] as const;

interface PickerFit {
  /** The label of the chosen option, as the picker holds it. */
  label: string;
  /** The width the picker would need to show that label whole, and the width it has. */
  needed: number;
  width: number;
  ellipsis: boolean;
  title: string;
  /** Where the picker is: in the composer, beside the attach button, where the next message is written. */
  inComposer: boolean;
}

// A string: the e2e build has no DOM types. The width the label needs is the width of a copy of the
// picker holding only that option, laid out at its natural size.
const PICKER_FIT = `(() => {
  const select = document.querySelector('[data-testid="model-picker"]');
  const label = select.selectedOptions[0].textContent;
  const copy = select.cloneNode(false);
  const option = document.createElement('option');
  option.textContent = label;
  copy.appendChild(option);
  copy.style.cssText = 'position:absolute;visibility:hidden;width:auto;min-width:0;max-width:none;left:0;top:0';
  select.parentElement.appendChild(copy);
  const needed = copy.getBoundingClientRect().width;
  copy.remove();
  const style = getComputedStyle(select);
  return { label, needed, width: select.getBoundingClientRect().width, ellipsis: style.textOverflow === 'ellipsis', title: select.title, inComposer: select.closest('.composer-actions') !== null };
})()`;

// Every control of the header inside it, on one row.
const CONTROLS_LAYOUT = `(() => {
  const header = document.querySelector('.chat-header').getBoundingClientRect();
  const boxes = [...document.querySelectorAll('.chat-controls > *')].map((el) => el.getBoundingClientRect());
  const centres = boxes.map((r) => (r.top + r.bottom) / 2);
  return {
    inside: boxes.every((r) => r.left >= header.left - 0.5 && r.right <= header.right + 0.5),
    rowSpread: Math.max(...centres) - Math.min(...centres),
  };
})()`;

function profileNamed(apiBase: string, name: string): string {
  return fakeProfileYaml(apiBase).replace('    name: Fake\n', `    name: ${JSON.stringify(name)}\n`);
}

async function openResults(page: Page): Promise<void> {
  // Two frames: a resize's media query reaches the layout store in the first.
  await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(undefined))))');
  const toggle = page.getByTestId('panel-toggle');
  if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
  await page.getByTestId('panel-tab-artifacts').click();
  await expect(page.getByTestId('files-panel')).toHaveAttribute('data-tab', 'artifacts');
  await page.evaluate('document.fonts.ready.then(() => undefined)');
}

/**
 * A Folio of its own whose only chat model is the fake one named `modelName`, the default model, in
 * `language`: a new ppt task opened, then at each size the Results panel opened beside it and
 * `check` given the picker's fit.
 */
async function eachSizeBesideResults(
  page: Page,
  fakeModelUrl: string,
  opts: { language: string; modelName: string },
  check: (fit: PickerFit, size: (typeof SIZES)[number]) => void,
): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-e2e-header-'));
  mkdirSync(join(dataDir, 'models'), { recursive: true });
  writeFileSync(join(dataDir, 'models', 'fake.yaml'), profileNamed(fakeModelUrl, opts.modelName));
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.endsWith('_API_KEY')));
  const folio = await startIsolatedFolio(dataDir, { ...env, FAKE_API_KEY: 'x' });
  try {
    await folioApi(folio, 'PATCH', '/v1/settings', { language: opts.language, default_model: 'fake.chat' });
    await page.setViewportSize(SIZES[0]);
    await page.goto(folio.appUrl);
    await createTask(page, 'ppt');
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await openResults(page);
      const fit = await page.evaluate<PickerFit>(PICKER_FIT);
      expect(fit.inComposer, 'the model picker is in the composer').toBe(true);
      check(fit, size);
      const layout = await page.evaluate<{ inside: boolean; rowSpread: number }>(CONTROLS_LAYOUT);
      expect(layout.inside, `at ${size.width} px every header control is inside the header`).toBe(true);
      expect(layout.rowSpread, `at ${size.width} px the header controls keep to one row`).toBeLessThan(4);
    }
  } finally {
    await folio.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

for (const language of ['en', 'zh-CN'] as const) {
  test(`the model picker shows a long model name whole at 1280 px beside the Results panel, and never cuts it mid-word (${language})`, async ({ page, fakeModel }) => {
    // A name as long as the walk's ("Default (fake-mod" was all the header's picker once showed at 1280 px).
    await eachSizeBesideResults(page, fakeModel.url, { language, modelName: 'Local fake-model' }, (fit, size) => {
      expect(fit.label, 'the picker names the default model').toContain('Local fake-model');
      const whole = fit.needed <= fit.width + 0.5;
      if (size.width >= 1280) expect(whole, `at ${size.width} px the picker (${fit.width} of ${fit.needed} px) shows "${fit.label}" whole`).toBe(true);
      // Narrower: whole, or cut with an ellipsis and named whole in the tooltip; never cut mid-word.
      else expect(whole || (fit.ellipsis && fit.title.includes(fit.label)), `at ${size.width} px the picker (${fit.width} of ${fit.needed} px) shows "${fit.label}" whole or marks the cut`).toBe(true);
    });
  });

  test(`a model name longer than the room left ends in an ellipsis, named whole in the tooltip (${language})`, async ({ page, fakeModel }) => {
    const long = 'qwen2.5-coder-32b-instruct-q4_K_M-local-gpu';
    await eachSizeBesideResults(page, fakeModel.url, { language, modelName: long }, (fit) => {
      expect(fit.needed, 'the long name does not fit').toBeGreaterThan(fit.width);
      expect(fit.ellipsis, 'the cut name ends in an ellipsis').toBe(true);
      expect(fit.title, 'the tooltip names the model whole').toContain(long);
    });
  });
}
