// Adding a file to a library: the stored name is one the file system takes, however long the
// person's file name was; another file of the same name gets a suffix.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PERSONAL_LIBRARY } from '../../shared/contract/library-id';
import { openTestStorePort } from '../store/test-store.test-support';
import { addLibraryFile } from './files';

describe('addLibraryFile', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-library-files-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('shortens a name longer than the file system allows, keeping its extension, and suffixes a second file of that name', async () => {
    const store = await openTestStorePort(dataDir);
    const { port } = store;
    try {
      const longName = `${'研究报告'.repeat(40)}.pdf`;
      const first = join(dataDir, 'first.pdf');
      const second = join(dataDir, 'second.pdf');
      writeFileSync(first, 'first');
      writeFileSync(second, 'second');
      let n = 0;
      const a = await addLibraryFile(port, dataDir, PERSONAL_LIBRARY, first, longName, () => `lf_${++n}`);
      expect(Buffer.byteLength(a.row.path)).toBeLessThanOrEqual(180);
      expect(a.row.path).toMatch(/^(研究报告)+研?究?报?\.pdf$/u);
      const b = await addLibraryFile(port, dataDir, PERSONAL_LIBRARY, second, longName, () => `lf_${++n}`);
      expect(b.row.path).toBe(a.row.path.replace(/\.pdf$/u, '-2.pdf'));
    } finally {
      await store.close();
    }
  });
});
