// A process killed in the middle of an upload, for the tests of the start-time sweep.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** A child process that stages a partial upload in the scratch, prints the folder, and is then killed with SIGKILL. */
export async function leftoverOfKilledProcess(dataDir: string): Promise<string> {
  const code = `const { makeScratchDirSync } = await import(${JSON.stringify(join(import.meta.dirname, 'scratch.ts'))});
const dir = makeScratchDirSync('folio-upload-', ${JSON.stringify(dataDir)});
(await import('node:fs')).writeFileSync(dir + '/0', 'partial upload');
console.log(dir);
setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  const dir = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.trim());
    });
    child.once('exit', (exitCode) => reject(new Error(`child exited early (${exitCode})`)));
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  return dir;
}
