// Folio's own writes go through the path resolver. This test lists every production file that
// calls a file-system write directly (write, mkdir, rename, link, copy, temp folders) with why it
// may: a new one fails here until someone checks that it writes only where the resolver (or the
// scratch folder) said, and adds it with the reason. Task paths are never joined by hand with a name
// from the model or from a file.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const WRITE_CALL = /(?:^|[^A-Za-z0-9_])(writeFileSync|writeFile|appendFileSync|appendFile|mkdirSync|mkdir|mkdtempSync|mkdtemp|renameSync|rename|linkSync|symlinkSync|symlink|copyFileSync|copyFile|cpSync|createWriteStream)\(/u;
const TEST_FILE = /(\.test\.tsx?|\.test-support\.ts|test-kit\.ts|\.fixture\.ts|\/testing\.ts|\/test-helpers\.ts)$|\/testing\//u;

/** Each file allowed to write directly, and where it writes. */
const ALLOWED: Record<string, string> = {
  'artifacts/write-artifact.ts': 'artifacts: the folder is the resolver’s real path (assertRealFolder), the temp file created by createExclusiveSync, link(2) never follows',
  'renderers/artifact-preview.ts': 'preview sidecars: same checks as artifacts, rename replaces a planted link',
  'sources/cache.ts': 'extraction caches: writeInside (exclusive) then rename inside the resolved folder',
  'sources/formats/pdfjs-code-cache.ts': 'pdfjs’s V8 code caches in the data folder’s cache/code/, named by module and hash: a temp file, then rename',
  'workspace/outline-file.ts': 'work/outline.json: writeInside (exclusive) then rename inside the resolved folder',
  'service/task-files.ts': 'uploads into source/: the folder resolved, COPYFILE_EXCL',
  'workspace/task-paths.ts': 'the resolver itself',
  'workspace/scratch.ts': 'the data folder’s scratch folder (temp folders named by Folio)',
  'workspace/layout.ts': 'task folders under the data folder, named by task id',
  'workspace/storage.ts': 'the team service’s tenant folders, named by validated ids',
  'tools/extract-figures.ts': 'page images in its own scratch folder; figures through writeInside',
  'renderers/document/paginate.ts': 'the document copy converted, in its own scratch folder',
  'renderers/soffice-warm.ts': 'the kept LibreOffice’s jobs folder, inside its own scratch folder',
  'service/mcp-service.ts': 'an MCP resource staged in its own scratch folder, then added like an upload',
  'transport/http/upload.ts': 'upload parts in the core’s upload folder (scratch), named by a counter',
  'service/create-core.ts': 'the data folder itself',
  'cli/render-command.ts': 'the person’s chosen output folder (CLI), and a template scratch folder',
  'library/files.ts': 'library files under the data folder, named by hash',
  'mcp/secrets.ts': 'mcp.json in the data folder',
  'models/custom-provider.ts': 'model profiles in the data folder',
  'models/keys.ts': 'keys.json in the data folder',
  'renderers/deck/templates/store.ts': 'imported templates in the data folder, named by id',
  'sandbox/cgroup.ts': 'cgroup control files',
  'store/backups.ts': 'database backups in the data folder',
  'store/open-database.ts': 'the database’s folder',
  'tenancy/key-encryption.ts': 'tenant key files in the storage root',
  'tools/skill-create.ts': 'skills in the data folder’s skills/, names validated by the skill schema',
};

function productionFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return productionFiles(full);
    return /\.tsx?$/u.test(entry.name) && !TEST_FILE.test(full) ? [full] : [];
  });
}

describe("Folio's own writes", () => {
  it('only the files listed write to the file system directly', () => {
    const main = join(import.meta.dirname, '..');
    const writers = productionFiles(main)
      .filter((file) => WRITE_CALL.test(readFileSync(file, 'utf8')))
      .map((file) => relative(main, file).split('\\').join('/'))
      .sort();
    const unexplained = writers.filter((file) => !(file in ALLOWED));
    expect(unexplained, 'write through writeInside/openInside (workspace/task-paths.ts) or the scratch folder, then list the file here').toEqual([]);
    // A file that no longer writes leaves the list: the list says what the code does.
    expect(Object.keys(ALLOWED).filter((file) => !writers.includes(file))).toEqual([]);
  });
});
