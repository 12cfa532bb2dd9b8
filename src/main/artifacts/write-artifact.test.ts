// Folio's own writes into a task: an artifact and its preview sidecar land only in the folder the
// path resolver named, whatever links a command planted there.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writePreviewSidecar } from '../renderers/artifact-preview';
import { makeTempRoot, removeTemp } from '../tools/testing';
import { writeArtifactAtomic } from './write-artifact';

let task: string;
let outside: string;
beforeEach(() => {
  task = makeTempRoot('folio-artifact-');
  outside = makeTempRoot('folio-artifact-outside-');
});
afterEach(() => {
  removeTemp(task);
  removeTemp(outside);
});

const bytes = new TextEncoder().encode('PK fake');
const sidecar = { kind: 'revision', changes: [] } as unknown as Parameters<typeof writePreviewSidecar>[1];

describe('writeArtifactAtomic and the preview sidecar', () => {
  it('writes the next free version, never through a link planted at the name', () => {
    const dir = path.join(task, 'artifacts');
    fs.mkdirSync(dir);
    const victim = path.join(outside, 'victim.pptx');
    fs.writeFileSync(victim, 'keep');
    fs.symlinkSync(victim, path.join(dir, 'deck.pptx'));
    fs.symlinkSync(path.join(outside, 'dangling.pptx'), path.join(dir, 'deck-v2.pptx'));
    const written = writeArtifactAtomic(dir, 'deck.pptx', bytes);
    expect(written).toBe(path.join(dir, 'deck-v3.pptx'));
    expect(fs.readFileSync(victim, 'utf8')).toBe('keep');
    expect(fs.existsSync(path.join(outside, 'dangling.pptx'))).toBe(false);
    expect(fs.readdirSync(outside)).toEqual(['victim.pptx']);
  });

  it('refuses a folder replaced by a link after the resolver named it', () => {
    const dir = path.join(task, 'artifacts');
    fs.symlinkSync(outside, dir);
    expect(() => writeArtifactAtomic(dir, 'deck.pptx', bytes)).toThrow(expect.objectContaining({ code: 'path_escape' }));
    expect(fs.readdirSync(outside)).toEqual([]);
  });

  it('refuses a name that is not a plain file name', () => {
    const dir = path.join(task, 'artifacts');
    expect(() => writeArtifactAtomic(dir, '..', bytes)).toThrow(expect.objectContaining({ code: 'path_escape' }));
  });

  it('writes the sidecar beside its artifact, replacing a planted link instead of following it', () => {
    const dir = path.join(task, 'artifacts');
    const written = writeArtifactAtomic(dir, 'report.docx', bytes);
    const victim = path.join(outside, 'victim.json');
    fs.writeFileSync(victim, 'keep');
    fs.symlinkSync(victim, path.join(dir, '.report.docx.preview.json'));
    const target = writePreviewSidecar(written, sidecar);
    expect(target).toBe(path.join(dir, '.report.docx.preview.json'));
    expect(fs.lstatSync(target).isFile()).toBe(true);
    expect(fs.readFileSync(victim, 'utf8')).toBe('keep');
    // Its folder swapped for a link out of the task: refused, nothing written outside.
    fs.rmSync(dir, { recursive: true });
    fs.symlinkSync(outside, dir);
    expect(() => writePreviewSidecar(written, sidecar)).toThrow(expect.objectContaining({ code: 'path_escape' }));
    expect(fs.readdirSync(outside)).toEqual(['victim.json']);
  });
});
