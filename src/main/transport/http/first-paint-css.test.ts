import { describe, expect, it } from 'vitest';
import { cssForMarkup, mayMatch, markupNames, splitCss } from './first-paint-css';

const MARKUP = '<html><body><div id="root"><div class="app first-paint" aria-busy="true"><aside class="sidebar"><ul class="task-list"><li class="task-item"><span class="task-title">A</span></li></ul></aside></div></div></body></html>';
const names = markupNames(MARKUP);

describe('the rules a drawn task list may use', () => {
  it('keeps a rule whose classes, ids, attributes and elements all occur in the markup', () => {
    for (const selector of [':root', '*', 'html', 'body', '#root', '.app.first-paint', '.sidebar .task-list>.task-item', '.task-item:hover', '.app:has(>.sidebar)', '[aria-busy]', '.task-title::after', 'li.task-item:not(.selected)']) {
      expect(mayMatch(selector, names), selector).toBe(true);
    }
  });

  it('drops a rule that names anything the markup lacks', () => {
    for (const selector of ['.approval-card', '.task-item .task-actions', 'kbd', '#other', '.app[data-tab=artifacts]', '.input:where(textarea)', 'button.task-main']) {
      expect(mayMatch(selector, names), selector).toBe(false);
    }
  });

  it('filters inside @media, keeps an animation only if a kept rule names it, and keeps the order', () => {
    const css =
      ':root{--w:264px}.task-item{display:flex}.spinner{animation:.8s spin}@keyframes spin{to{transform:rotate(1turn)}}' +
      '@keyframes fade{to{opacity:0}}.task-title{animation:1s fade}@media (width<1100px){.app{--w:220px}.settings-nav{width:auto}}@media print{.modal{display:none}}';
    expect(cssForMarkup(css, MARKUP)).toBe(':root{--w:264px}.task-item{display:flex}@keyframes fade{to{opacity:0}}.task-title{animation:1s fade}@media (width<1100px){.app{--w:220px}}');
  });

  it('keeps a rule if any selector of its list may match', () => {
    expect(cssForMarkup('.btn,.task-item{color:red}.btn,.menu{color:blue}', MARKUP)).toBe('.btn,.task-item{color:red}');
  });

  it('reads braces and commas inside strings and comments as text', () => {
    const css = '/* .task-item{ */.task-title::before{content:"}{,"}.menu::before{content:\'}\'}';
    expect(splitCss(css).map((item) => item.prelude)).toEqual(['.task-title::before', '.menu::before']);
    expect(cssForMarkup(css, MARKUP)).toBe('.task-title::before{content:"}{,"}');
  });

  it('refuses a sheet with unbalanced braces rather than guess', () => {
    expect(() => splitCss('.a{color:red')).toThrow(/unclosed/u);
    expect(() => splitCss('.a{}}')).toThrow(/never opened/u);
  });
});
