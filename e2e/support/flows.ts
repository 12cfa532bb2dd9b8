// Shared steps of the end-to-end flows: driving a run through the UI, reading what the
// model was sent, and checking produced files with the same tools a person would use (LibreOffice,
// poppler).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { type Page } from '@playwright/test';
import type { ApprovalMode } from '../../src/shared/contract';
import { recordedRequests } from './fake-model';
import { expect } from './fixtures';
import { folioApi, type FolioServer } from './folio-server';

/** Is `command` on the PATH? */
export function hasCommand(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Types a message into the composer and sends it. */
export async function sendMessage(page: Page, text: string): Promise<void> {
  const input = page.getByTestId('composer-input');
  await input.fill(text);
  await input.press('Enter');
}

/** Waits until the task shows `count` finished runs and the last one ended as done. */
export async function expectRunsDone(page: Page, count: number): Promise<void> {
  const footers = page.getByTestId('chat-view').getByTestId('run-footer');
  await expect(footers).toHaveCount(count, { timeout: 45_000 });
  await expect(footers.last()).toHaveAttribute('data-run-status', 'done');
}

/** Picks the approval mode in the chat header and waits until the server has stored it. */
export async function setApprovalMode(page: Page, folio: FolioServer, taskId: string, mode: ApprovalMode): Promise<void> {
  await page.getByTestId('approval-mode-picker').selectOption(mode);
  await expect.poll(async () => ((await folioApi(folio, 'GET', `/v1/tasks/${taskId}`)) as { approval_mode: string }).approval_mode).toBe(mode);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A message's text whether the client sent a string or an array of text parts. */
function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : '')).join('');
  return '';
}

/** The contents of the tool messages in the last chat request Folio sent to the model, in order. */
export async function toolMessagesOfLastRequest(): Promise<string[]> {
  const chats = (await recordedRequests()).filter((r) => r.method === 'POST' && r.path === '/v1/chat/completions');
  const last = chats[chats.length - 1];
  if (!last || !isRecord(last.body) || !Array.isArray(last.body.messages)) throw new Error('the fake model has received no chat request with messages');
  return last.body.messages.filter((m): m is Record<string, unknown> => isRecord(m) && m.role === 'tool').map((m) => messageText(m.content));
}

/**
 * Converts a file to PDF with LibreOffice and returns the PDF's path (in `outDir`). A private
 * profile: with a shared one, a second soffice hands its job to a running one and exits at once.
 */
export function convertToPdf(file: string, outDir: string): string {
  const profile = mkdtempSync(join(tmpdir(), 'folio-e2e-lo-'));
  const work = mkdtempSync(join(outDir, 'lo-out-'));
  try {
    execFileSync('soffice', [`-env:UserInstallation=file://${profile}`, '--headless', '--convert-to', 'pdf', '--outdir', work, file], {
      stdio: 'ignore',
      timeout: 120_000,
    });
    const produced = readdirSync(work).find((name) => name.endsWith('.pdf'));
    if (!produced) throw new Error(`LibreOffice produced no PDF from ${file}`);
    const pdf = join(outDir, `${basename(file).replace(/\.[^.]+$/u, '')}.pdf`);
    renameSync(join(work, produced), pdf);
    return pdf;
  } finally {
    rmSync(profile, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  }
}

/** The page count pdfinfo reports. */
export function pdfPageCount(pdf: string): number {
  const info = execFileSync('pdfinfo', [pdf], { encoding: 'utf8' });
  const match = /^Pages:\s+(\d+)/mu.exec(info);
  if (!match) throw new Error(`pdfinfo printed no page count for ${pdf}:\n${info}`);
  return Number(match[1]);
}

/**
 * A PDF with one page per entry of `pages`, made by LibreOffice from a text file (a form feed is a
 * page break in its text import). Cached under the temp folder by content, since soffice is slow;
 * made in a folder of its own and renamed into place, so workers asking at once never see half a file.
 */
export function textPdf(name: string, pages: readonly string[]): string {
  const text = pages.join('\n\f');
  const key = createHash('sha256').update(text).digest('hex').slice(0, 16);
  const dir = join(tmpdir(), 'folio-e2e-fixtures', key);
  const pdf = join(dir, `${name}.pdf`);
  if (existsSync(pdf)) return pdf;
  mkdirSync(dir, { recursive: true });
  const work = mkdtempSync(join(dir, 'making-'));
  try {
    const txt = join(work, `${name}.txt`);
    writeFileSync(txt, `${text}\n`);
    const made = convertToPdf(txt, work);
    const count = pdfPageCount(made);
    if (count !== pages.length) throw new Error(`LibreOffice made ${count} pages from ${pages.length} page texts`);
    renameSync(made, pdf);
    return pdf;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
