import { describe, expect, it } from 'vitest';
import { cachePathFor, cacheTempPathFor, declaredKind, isCacheFile, isExtractable, sidecarPathFor, sniff, sourceOfCacheFile } from './kinds';

const bytes = (...b: number[]) => new Uint8Array(b);

describe('source file names', () => {
  it('knows which files under source/ are extractable', () => {
    expect(isExtractable('source/report.pdf')).toBe(true);
    expect(isExtractable('source/sub/Deck.PPTX')).toBe(true);
    expect(isExtractable('source/报告.docx')).toBe(true);
    expect(isExtractable('source/photo.jpeg')).toBe(true);
    expect(isExtractable('output/report.pdf')).toBe(false);
    expect(isExtractable('source/tool.exe')).toBe(false);
    expect(isExtractable('source/.hidden.pdf')).toBe(false);
    expect(isExtractable('source/report.pdf.md')).toBe(false);
  });

  it('recognises cache files and sidecars, and not a person’s own markdown', () => {
    expect(isCacheFile('source/report.pdf.md')).toBe(true);
    expect(isCacheFile('source/.report.pdf.extract.json')).toBe(true);
    expect(isCacheFile(cacheTempPathFor('source/数据.csv.md', 21142, 1796664616493))).toBe(true);
    expect(isCacheFile(cacheTempPathFor('source/.report.pdf.extract.json', 7, 1))).toBe(true);
    expect(isCacheFile('source/notes.txt.1.2.tmp')).toBe(false);
    expect(isCacheFile('source/report.md')).toBe(false);
    expect(isCacheFile('notes/report.pdf.md')).toBe(false);
    expect(cachePathFor('source/a/report.pdf')).toBe('source/a/report.pdf.md');
    expect(sidecarPathFor('source/a/report.pdf')).toBe('source/a/.report.pdf.extract.json');
    expect(sourceOfCacheFile('source/a/report.pdf.md')).toBe('source/a/report.pdf');
    expect(sourceOfCacheFile('source/.report.pdf.extract.json')).toBeNull();
    expect(declaredKind('x.xlsm')).toBe('xlsx');
    expect(declaredKind('README')).toBeNull();
  });
});

describe('sniff', () => {
  it('tells formats apart by their first bytes', () => {
    expect(sniff(new TextEncoder().encode('%PDF-1.7\n'))).toBe('pdf');
    expect(sniff(new TextEncoder().encode('junk before\n%PDF-1.4\n'))).toBe('pdf');
    expect(sniff(bytes(0x50, 0x4b, 0x03, 0x04, 0x14))).toBe('zip');
    expect(sniff(bytes(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1))).toBe('ole');
    expect(sniff(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a))).toBe('image');
    expect(sniff(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe('image');
    expect(sniff(new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8 '))).toBe('image');
    expect(sniff(bytes(0xff, 0xfe, 0x2d, 0x00))).toBe('text');
    expect(sniff(new TextEncoder().encode('中文 text'))).toBe('text');
    expect(sniff(bytes(1, 2, 0, 3))).toBe('binary');
  });
});
