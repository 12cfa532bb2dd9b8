// One LibreOffice conversion for a test file's documents. Used by tests only.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Converts the .docx (or .pptx) files to PDF in `work` with one soffice start and returns the PDFs' paths, in
 * order. The profile is private, since a shared one is locked by any other soffice; soffice exits 0 even when a
 * conversion fails, so each PDF's existence is the check.
 */
export function convertToPdf(work: string, files: readonly string[], timeoutMs = 400_000): string[] {
  spawnSync('soffice', [`-env:UserInstallation=file://${join(work, 'profile')}`, '--headless', '--convert-to', 'pdf', '--outdir', work, ...files], { timeout: timeoutMs });
  return files.map((path) => {
    const pdf = join(work, path.replace(/^.*\//u, '').replace(/\.(?:docx|pptx)$/u, '.pdf'));
    if (!existsSync(pdf)) throw new Error(`soffice produced no ${pdf}`);
    return pdf;
  });
}
