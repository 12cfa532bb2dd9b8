// The `folio` command line, run as a person would (a child process on the TypeScript entry).
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import JSZip from 'jszip';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { folio, root } from './folio-process.test-support';

describe('folio CLI', () => {
  it('render writes a deck and a document, versioning instead of overwriting', () => {
    const out = mkdtempSync(join(tmpdir(), 'folio-cli-'));
    const deck = folio(['render', join(root, 'samples/deck-zh-talk/deck.json'), '-o', out]);
    expect(deck.status, deck.stderr).toBe(0);
    expect(deck.stdout).toMatch(/Wrote .*deck\.pptx \(12 slides\)/);
    // LibreOffice is installed wherever the suite runs (CI too): the report was read back from the slides.
    expect(deck.stdout).toContain('Quality report, verified against the rendered slides:');
    const again = folio(['render', join(root, 'samples/deck-zh-talk/deck.json'), '-o', out], { FOLIO_SOFFICE: join(out, 'no-such-soffice') });
    expect(again.stdout).toMatch(/deck-v2\.pptx/);
    expect(again.stdout).toContain('Quality report, estimated (LibreOffice not installed):');
    const doc = folio(['render', join(root, 'samples/proposal-nsfc'), '-o', out]);
    expect(doc.status, doc.stderr).toBe(0);
    expect(doc.stdout).toMatch(/\.docx: (about )?\d+ pages/);
    expect(existsSync(join(out, 'deck.pptx'))).toBe(true);
  }, 180_000);

  it('render --template draws the deck on a .pptx template file, and refuses an unknown template id by name', async () => {
    const { buildTemplate } = await import('../renderers/deck/templates/fixture.test-support');
    const dir = mkdtempSync(join(tmpdir(), 'folio-cli-tpl-'));
    writeFileSync(join(dir, 'acme.pptx'), await buildTemplate());
    writeFileSync(join(dir, 'deck.json'), JSON.stringify({ title: 'Q3', slides: [{ layout: 'bullets', title: 'Growth', bullets: ['Revenue up', 'Costs down'] }] }));
    const result = folio(['render', join(dir, 'deck.json'), '--template', join(dir, 'acme.pptx'), '-o', dir], { FOLIO_SOFFICE: join(dir, 'no-such-soffice') });
    expect(result.status, result.stderr).toBe(0);
    const zip = await JSZip.loadAsync(readFileSync(join(dir, 'deck.pptx')));
    const layouts = Object.keys(zip.files).filter((n) => /^ppt\/slideLayouts\/slideLayout\d+\.xml$/.test(n));
    const master = (await zip.file('ppt/slideMasters/slideMaster1.xml')?.async('string')) ?? '';
    // The template's master (its logo picture) is behind the slides, not pptxgenjs's blank one.
    expect(master).toContain('<p:pic>');
    expect(layouts.length).toBeGreaterThan(0);
    const data = mkdtempSync(join(tmpdir(), 'folio-cli-data-'));
    const unknown = folio(['render', join(dir, 'deck.json'), '--template', 'no-such-template', '-o', dir], { FOLIO_DATA_DIR: data });
    expect(unknown.status).toBe(3);
    expect(unknown.stderr).toMatch(/unknown theme "no-such-template"/);
  }, 120_000);

  it('render reports a bad spec with the field and a non-zero exit', () => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-cli-'));
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ title: 'x', slides: [{ layout: 'nope' }] }));
    const result = folio(['render', join(dir, 'bad.json')]);
    expect(result.status).toBe(3);
    expect(result.stderr).toMatch(/slides\[0\]\.layout/);
  });

  it('tasks lists nothing on a fresh data folder; unknown commands fail with usage', () => {
    const data = mkdtempSync(join(tmpdir(), 'folio-cli-data-'));
    const tasks = folio(['tasks'], { FOLIO_DATA_DIR: data });
    expect(tasks.status, tasks.stderr).toBe(0);
    expect(tasks.stdout).toContain('No tasks.');
    const bad = folio(['frobnicate']);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/Unknown command/);
  });

  it('says a mistake on the command line in one line, in the terminal\'s language, never as a dump or a stack', () => {
    const data = mkdtempSync(join(tmpdir(), 'folio-cli-data-'));
    const zh = { FOLIO_DATA_DIR: data, LC_ALL: 'zh_CN.UTF-8' };
    const help = folio(['--help'], zh);
    expect(help.stdout).toContain('用法：folio <命令> [选项]');
    expect(help.stdout).toContain('列出任务');
    expect(help.stdout).not.toContain('Usage');
    const cases: [string[], string][] = [
      [['tasks', '--status', 'done'], '未知状态 done：可用 active、completed 或 abandoned。'],
      [['tasks', '--bogus'], '未知选项 --bogus。'],
      [['render', join(data, 'missing.json')], `${join(data, 'missing.json')} 不存在`],
      [['chat', '--mode', 'slides'], '--mode 只能是 general、ppt、proposal 或 coding（收到的是 slides）'],
    ];
    for (const [args, said] of cases) {
      const result = folio(args, zh);
      expect(result.status, args.join(' ')).toBe(3);
      expect(result.stderr).toContain(said);
      expect(result.stderr).toContain('folio --help 列出全部命令和选项。');
      expect(result.stderr).not.toMatch(/Error|ENOENT|"code"|\n\s+at /);
    }
    expect(folio(['tasks'], zh).stdout).toContain('还没有任务。');
    const english = folio(['tasks', '--bogus'], { FOLIO_DATA_DIR: data });
    expect(english.stderr).toContain('Unknown option --bogus.');
    expect(english.stderr).not.toContain('TypeError');
  });

  it('probe of an unknown profile exits 3 and names the known ones', () => {
    const data = mkdtempSync(join(tmpdir(), 'folio-cli-data-'));
    const probe = folio(['probe', 'nope.nothing'], { FOLIO_DATA_DIR: data });
    expect(probe.status).toBe(3);
    expect(probe.stderr).toMatch(/deepseek\.flash/);
  });
});
