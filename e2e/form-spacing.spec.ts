// Rows and frames keep their words apart as a person reads them, in English and Chinese at both
// window sizes: a value that wraps over several lines does not touch the next row's, and a frame's
// title leaves no empty stretch in the frame's border.
import { type Page } from '@playwright/test';
import { createTask, expect, test } from './support/fixtures';
import { folioApi } from './support/folio-server';
import { SCREEN_SIZES } from './support/screens';

/** The vertical gaps between the text lines of consecutive values in Settings › General, top to bottom. */
async function valueGaps(page: Page): Promise<{ rows: string; gap: number }[]> {
  return page.evaluate<{ rows: string; gap: number }[]>(`(() => {
    const values = [...document.querySelectorAll('[data-testid="general-section"] .form-row > .form-value')];
    const text = (el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      const boxes = [...range.getClientRects()].filter((r) => r.height > 0);
      return { top: Math.min(...boxes.map((r) => r.top)), bottom: Math.max(...boxes.map((r) => r.bottom)) };
    };
    const gaps = [];
    for (let i = 1; i < values.length; i++) {
      const label = (el) => el.parentElement.querySelector('.form-label').textContent;
      gaps.push({ rows: label(values[i - 1]) + ' / ' + label(values[i]), gap: Math.round(text(values[i]).top - text(values[i - 1]).bottom) });
    }
    return gaps;
  })()`);
}

for (const language of ['en', 'zh-CN'] as const) {
  test(`settings rows and the setup's model frame keep their words apart (${language})`, async ({ page, folio }) => {
    await folioApi(folio, 'PATCH', '/v1/settings', { language });
    try {
      const capabilities = page.waitForResponse((response) => new URL(response.url()).pathname === '/v1/capabilities');
      await page.goto(folio.appUrl);
      await createTask(page, 'general');
      await capabilities;
      await page.getByTestId('nav-settings').click();
      await expect(page.getByTestId('settings-python')).toBeVisible();
      for (const size of SCREEN_SIZES) {
        await page.setViewportSize(size);
        const gaps = await valueGaps(page);
        expect(gaps.length, 'the General section shows its values').toBeGreaterThanOrEqual(3);
        for (const { rows, gap } of gaps) expect(gap, `text of ${rows} at ${size.width}×${size.height}`).toBeGreaterThanOrEqual(8);
      }

      // The setup's list of models to add, read from the fake server: the frame's title is as wide as its words.
      await page.getByTestId('open-setup').click();
      await page.getByTestId('setup-custom').click();
      await page.getByTestId('setup-custom-base').fill(process.env.FAKE_OPENAI_URL!);
      await page.getByTestId('setup-custom-key').fill('sk-e2e-spacing-1234');
      await page.getByTestId('setup-load-models').click();
      await expect(page.getByTestId('setup-model-option')).toHaveCount(1);
      for (const size of SCREEN_SIZES) {
        await page.setViewportSize(size);
        const title = await page.evaluate<{ box: number; words: number }>(`(() => {
          const el = document.querySelector('fieldset.setup-models > legend');
          const range = document.createRange();
          range.selectNodeContents(el);
          return { box: el.getBoundingClientRect().width, words: range.getBoundingClientRect().width };
        })()`);
        expect(title.box - title.words, `the title's box beyond its words at ${size.width}×${size.height}`).toBeLessThanOrEqual(10);
      }
    } finally {
      await folioApi(folio, 'PATCH', '/v1/settings', { language: 'system' });
    }
  });
}
