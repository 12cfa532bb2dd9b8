// The built stylesheet keeps every rule of the source at the top level. An unclosed brace in
// styles.css makes the build lower the rules after it into descendant selectors
// (`.outline-rows .slide-thumb-wrap`), which then never match; stylelint catches it in the source,
// this catches it in what ships. Chromium parses both sheets, so selectors compare in one spelling.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { repoRoot } from './support/processes';

function cssFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return cssFiles(path);
    return entry.name.endsWith('.css') ? [path] : [];
  });
}

interface SheetShape {
  /** Selectors of style rules at the top level or directly inside a grouping rule (@media, @supports). */
  selectors: string[];
  /** Selectors of style rules that contain other style rules (CSS nesting). */
  nested: string[];
}

test('the built CSS has every source rule at the top level and no nesting', async ({ page }) => {
  const builtDir = join(repoRoot, 'out/renderer/assets');
  const built = cssFiles(builtDir).map((file) => readFileSync(file, 'utf8'));
  expect(built.length, `no CSS in ${builtDir}: run \`npm run build\` first`).toBeGreaterThan(0);
  const source = cssFiles(join(repoRoot, 'src/renderer')).map((file) => readFileSync(file, 'utf8'));

  // Runs in the page; a string because the e2e build has no DOM types (and must not get them).
  const shapeInPage = `(texts) => {
    const selectors = [];
    const nested = [];
    const walk = (rules) => {
      for (const rule of Array.from(rules)) {
        if (rule instanceof CSSStyleRule) {
          for (const one of rule.selectorText.split(/,(?![^(]*\\))/u)) selectors.push(one.trim());
          if (rule.cssRules.length > 0) nested.push(rule.selectorText);
        } else if (rule instanceof CSSGroupingRule) {
          walk(rule.cssRules);
        }
      }
    };
    for (const text of texts) {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(text);
      walk(sheet.cssRules);
    }
    return { selectors, nested };
  }`;
  const shape = (sheets: string[]): Promise<SheetShape> => page.evaluate(`(${shapeInPage})(${JSON.stringify(sheets)})`);

  const src = await shape(source);
  const out = await shape(built);
  expect.soft(src.nested, 'nested rules in src/renderer CSS (an unclosed brace?)').toEqual([]);
  expect.soft(out.nested, 'nested rules in the built CSS').toEqual([]);
  const shipped = new Set(out.selectors);
  const missing = [...new Set(src.selectors)].filter((selector) => !shipped.has(selector));
  expect(missing, 'source selectors the build changed (rules swallowed by an unclosed block)').toEqual([]);
});
