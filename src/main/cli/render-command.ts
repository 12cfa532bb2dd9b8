// `folio render <deck.json | document-folder> [-o out] [--template <id | file.pptx>]`: the document
// engine from the command line. A deck may be drawn on an imported template (its id in the data
// folder) or straight on a .pptx/.potx file, imported for this render into a scratch folder.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { templatesDir, themesDir } from '../workspace/layout';
import { CliInputError, cliLanguage, type Translate } from './cli-messages';
import { deckCheckText, deckIssueLines, documentIssueLines, documentPagesText } from './render-report';
import { templateWarningText } from '../../shared/template-warning-text';

export async function renderCommand(argv: string[], paths: (() => { dataDir: string }) | undefined, t: Translate): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { out: { type: 'string', short: 'o' }, template: { type: 'string', short: 't' } },
    allowPositionals: true,
    strict: true,
  });
  const input = positionals[0];
  if (!input) {
    console.error(t('render.usage'));
    return 1;
  }
  const english = cliLanguage() === 'en';
  const abs = resolve(input);
  if (!existsSync(abs)) throw new CliInputError('errors.noSuchInput', { path: abs });
  // Artifacts are written into a folder named by its real path (links resolved here, where the person chose it).
  const outDir = realOutDir(resolve(values.out ?? dirname(abs)));
  if (statSync(abs).isDirectory()) {
    const { renderDocument } = await import('../renderers/document');
    const result = await renderDocument(abs, { outDir });
    console.log(t('render.wroteDocument', { path: result.path, pages: documentPagesText(result.report.pages, result.pageEstimate, t) }));
    for (const line of documentIssueLines(result.report.issues, english, t)) console.log(line);
  } else {
    const { checkRenderedDeck, renderDeckFromFile } = await import('../renderers/deck');
    const dataDir = paths?.().dataDir;
    let templates = dataDir ? templatesDir(dataDir) : undefined;
    let theme = values.template;
    let scratch: string | undefined;
    const file = values.template ? resolve(values.template) : '';
    if (values.template && /\.(pptx|potx)$/i.test(values.template) && existsSync(file)) {
      const { importTemplate } = await import('../renderers/deck/templates/store');
      scratch = mkdtempSync(join(tmpdir(), 'folio-template-'));
      const record = await importTemplate(scratch, readFileSync(file), basename(file));
      for (const warning of record.warnings) console.log(t('render.templateWarning', { warning: templateWarningText(warning, (key, vars) => t(key, vars)) }));
      templates = scratch;
      theme = record.id;
    }
    // LibreOffice starts (seconds) while the deck is built, for the check that follows.
    (await import('../renderers/soffice-warm')).prestartWarmConverter();
    let result;
    try {
      result = await renderDeckFromFile(abs, {
        baseDir: dirname(abs),
        outDir,
        ...(templates ? { templatesDir: templates } : {}),
        ...(dataDir ? { themesDir: themesDir(dataDir) } : {}),
        ...(theme ? { theme } : {}),
      });
    } finally {
      if (scratch) rmSync(scratch, { recursive: true, force: true });
    }
    console.log(t('render.wroteDeck', { path: result.path, count: result.slideCount }));
    const { report, verification } = await checkRenderedDeck(result);
    console.log(t('render.report', { checked: deckCheckText(verification, english, t), count: report.summary.issues }));
    for (const line of deckIssueLines(report, english, t)) console.log(line);
  }
  return 0;
}

function realOutDir(dir: string): string {
  mkdirSync(dir, { recursive: true });
  return realpathSync(dir);
}
