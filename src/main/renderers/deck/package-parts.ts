// A package's parts in memory, for the post-processing of every render: read with fflate in one
// pass, edited by name, written back in their order (a moved part goes last, as JSZip did). JSZip,
// which reading templates and previews still use, runs each part through its stream of workers
// and deflates each with a fresh pako deflater: for a 100-slide deck's ~540 parts that cost more
// than the rest of the post-processing together.
import { createRequire } from 'node:module';
import type * as Fflate from 'fflate';

let fflate: typeof Fflate | undefined;

function lib(): typeof Fflate {
  fflate ??= createRequire(import.meta.url)('fflate') as typeof Fflate;
  return fflate;
}

/** Deflate level of every written package: zlib's default, as Office writes. */
const LEVEL = 6;

const decoder = new TextDecoder();
const encoder = new TextEncoder();

export class PackageParts {
  private constructor(private readonly parts: Record<string, Uint8Array>) {}

  static read(bytes: Uint8Array): PackageParts {
    return new PackageParts(lib().unzipSync(bytes));
  }

  /** Part names in package order (folders end with "/"). */
  names(): string[] {
    return Object.keys(this.parts);
  }

  has(name: string): boolean {
    return Object.hasOwn(this.parts, name);
  }

  bytes(name: string): Uint8Array | undefined {
    return this.has(name) ? this.parts[name] : undefined;
  }

  text(name: string): string | undefined {
    const bytes = this.bytes(name);
    return bytes && decoder.decode(bytes);
  }

  set(name: string, data: string | Uint8Array): void {
    this.parts[name] = typeof data === 'string' ? encoder.encode(data) : data;
  }

  remove(name: string): void {
    delete this.parts[name];
  }

  /**
   * The package, deflated, every entry dated 1980-01-01 00:00 (the DOS epoch, as reproducible
   * builds use), so its bytes depend on its parts alone.
   */
  write(): Uint8Array {
    // fflate stores a date's local fields (JSZip its UTC fields): local midnight is 00:00 in every time zone.
    const mtime = new Date(1980, 0, 1, 0, 0, 0);
    const entries: Fflate.Zippable = {};
    for (const [name, data] of Object.entries(this.parts)) entries[name] = [data, { level: name.endsWith('/') ? 0 : LEVEL, mtime }];
    return lib().zipSync(entries);
  }
}
