// `folio render <deck.json | document-folder> [-o out]`: the document engine from the command line.
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';

export async function renderCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: { out: { type: 'string', short: 'o' } }, allowPositionals: true, strict: true });
  const input = positionals[0];
  if (!input) {
    console.error('Usage: folio render <deck.json | document-folder> [-o out-dir]');
    return 1;
  }
  const abs = resolve(input);
  const outDir = resolve(values.out ?? dirname(abs));
  if (statSync(abs).isDirectory()) {
    const { pagesSentence, renderDocument } = await import('../renderers/document');
    const result = await renderDocument(abs, { outDir });
    console.log(`Wrote ${result.path}: ${pagesSentence(result.report.pages, result.pageEstimate)}`);
    for (const issue of result.report.issues) {
      const where = [issue.section, issue.heading].filter(Boolean).join(' › ');
      console.log(`  ${where ? `${where}: ` : ''}${issue.kind}: ${issue.message}`);
    }
  } else {
    const { checkRenderedDeck, renderDeckFromFile, verificationNote } = await import('../renderers/deck');
    const result = await renderDeckFromFile(abs, { baseDir: dirname(abs), outDir });
    console.log(`Wrote ${result.path} (${result.slideCount} slides)`);
    const { report, verification } = await checkRenderedDeck(result);
    console.log(`Quality report, ${verificationNote(verification)}: ${report.summary.issues} issue(s)`);
    for (const slide of report.slides) {
      const where = slide.output_slides.length > 0 ? ` (file slide ${slide.output_slides.join(', ')})` : '';
      for (const issue of slide.issues) console.log(`  spec slide ${slide.index + 1}${where}: ${issue.kind}: ${issue.message}`);
    }
  }
  return 0;
}
