// The warm converter's lifecycle with the real LibreOffice (one start shared by the conversions
// below, one restart), and its failures through a fake soffice that never answers.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempRoot, removeTemp, writeFiles } from '../tools/testing';
import { writeTestDeck } from './deck/verify/testing';
import { SOFFICE_ENV, sofficePath } from './soffice';
import { convertToPdfWarm, prestartWarmConverter, stopWarmConverters, unoPython, warmConverterPid } from './soffice-warm';
import { expectAbortAtStartLeavesNothing } from './soffice.test-support';

const saved = process.env[SOFFICE_ENV];
const hasUno = sofficePath() !== null && unoPython() !== null;
const skipReason = 'needs LibreOffice and python3-uno (apt-get install libreoffice-impress python3-uno)';

function pages(pdf: Uint8Array): number {
  return Buffer.from(pdf).toString('latin1').match(/\/Type\s*\/Page\b(?!s)/g)?.length ?? 0;
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('convertToPdfWarm', () => {
  let root: string;
  let deck: string;

  beforeAll(async () => {
    root = makeTempRoot('folio-soffice-warm-test-');
    deck = join(root, 'deck.pptx');
    await writeTestDeck(deck, 3);
  });
  afterEach(() => {
    if (saved === undefined) delete process.env[SOFFICE_ENV];
    else process.env[SOFFICE_ENV] = saved;
  });
  afterAll(() => {
    stopWarmConverters();
    removeTemp(root);
  });

  it.skipIf(!hasUno)(`keeps one LibreOffice for consecutive conversions, replaces a killed one, and leaves none behind (${skipReason})`, async () => {
    const first = await convertToPdfWarm(deck, { timeoutMs: 120_000 });
    const pid = warmConverterPid();
    expect(pid).toBeDefined();
    expect(pages(first)).toBe(3);
    const second = await convertToPdfWarm(deck, { timeoutMs: 60_000 });
    expect(pages(second)).toBe(3);
    expect(warmConverterPid()).toBe(pid);

    // Killed between conversions (a crash, the OOM killer): the next conversion starts another.
    process.kill(-(pid ?? 0), 'SIGKILL');
    const third = await convertToPdfWarm(deck, { timeoutMs: 120_000 });
    expect(pages(third)).toBe(3);
    const replacement = warmConverterPid();
    expect(replacement).toBeDefined();
    expect(replacement).not.toBe(pid);

    stopWarmConverters();
    expect(warmConverterPid()).toBeUndefined();
    await vi.waitFor(() => expect(groupAlive(replacement ?? 0)).toBe(false), { timeout: 10_000, interval: 50 });
  }, 300_000);

  it.skipIf(!hasUno)(`a converter started ahead is the one the next conversion uses, and starting ahead again keeps it (${skipReason})`, async () => {
    const fake = join(root, 'fake-soffice-slow.sh');
    writeFiles(root, { 'fake-soffice-slow.sh': '#!/bin/sh\nsleep 30\n' });
    chmodSync(fake, 0o755);
    process.env[SOFFICE_ENV] = fake;
    prestartWarmConverter();
    const pid = warmConverterPid();
    expect(pid).toBeDefined();
    prestartWarmConverter();
    expect(warmConverterPid()).toBe(pid);
    const conversion = convertToPdfWarm(deck, { timeoutMs: 1500, label: 'deck.pptx' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(warmConverterPid()).toBe(pid);
    await expect(conversion).rejects.toMatchObject({ code: 'tool_error' });
    await vi.waitFor(() => expect(groupAlive(pid ?? 0)).toBe(false), { timeout: 10_000, interval: 50 });
  }, 60_000);

  it.skipIf(!hasUno)(`a converter that never answers is stopped at the timeout with a typed error, its processes with it (${skipReason})`, async () => {
    const fake = join(root, 'fake-soffice-hang.sh');
    writeFiles(root, { 'fake-soffice-hang.sh': '#!/bin/sh\nsleep 30\n' });
    chmodSync(fake, 0o755);
    process.env[SOFFICE_ENV] = fake;
    const conversion = convertToPdfWarm(deck, { timeoutMs: 1500, label: 'artifacts/deck.pptx' });
    await new Promise((resolve) => setImmediate(resolve));
    const pid = warmConverterPid();
    expect(pid).toBeDefined();
    await expect(conversion).rejects.toMatchObject({ code: 'tool_error', message: 'LibreOffice did not finish converting artifacts/deck.pptx within 2 s; it was stopped.' });
    expect(warmConverterPid()).toBeUndefined();
    await vi.waitFor(() => expect(groupAlive(pid ?? 0)).toBe(false), { timeout: 10_000, interval: 50 });
  }, 30_000);

  it.skipIf(!hasUno)(`an aborted conversion is cancelled and its converter stopped (${skipReason})`, async () => {
    const fake = join(root, 'fake-soffice-hang.sh');
    writeFiles(root, { 'fake-soffice-hang.sh': '#!/bin/sh\nsleep 30\n' });
    chmodSync(fake, 0o755);
    process.env[SOFFICE_ENV] = fake;
    const controller = new AbortController();
    const conversion = convertToPdfWarm(deck, { timeoutMs: 60_000, signal: controller.signal });
    await new Promise((resolve) => setImmediate(resolve));
    const pid = warmConverterPid();
    controller.abort();
    await expect(conversion).rejects.toMatchObject({ code: 'cancelled' });
    await vi.waitFor(() => expect(groupAlive(pid ?? 0)).toBe(false), { timeout: 10_000, interval: 50 });
  }, 30_000);

  it.skipIf(!hasUno)(`an abort at any moment of the start (queued, spawning, sandboxing, waiting for LibreOffice) is cancelled at once and leaves no process or folder (${skipReason})`, async () => {
    await expectAbortAtStartLeavesNothing({
      root,
      convert: (signal) => convertToPdfWarm(deck, { timeoutMs: 60_000, signal, label: 'deck.pptx' }),
      afterEach: () => expect(warmConverterPid()).toBeUndefined(),
    });
  }, 60_000);

  it.skipIf(!hasUno)(`a soffice that exits at start falls back to the cold conversion, which says why (${skipReason})`, async () => {
    const fake = join(root, 'fake-soffice-silent.sh');
    writeFiles(root, { 'fake-soffice-silent.sh': '#!/bin/sh\nexit 0\n' });
    chmodSync(fake, 0o755);
    process.env[SOFFICE_ENV] = fake;
    await expect(convertToPdfWarm(deck, { timeoutMs: 10_000, label: 'deck.pptx' })).rejects.toMatchObject({
      code: 'tool_error',
      message: 'LibreOffice could not convert deck.pptx (no PDF was produced).',
    });
    expect(warmConverterPid()).toBeUndefined();
  }, 30_000);
});
