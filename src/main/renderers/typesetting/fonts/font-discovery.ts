// Which font file a face name becomes on this machine. LibreOffice on Linux resolves faces through
// fontconfig (including its metric-compatible aliases: Arial → Liberation Sans, Calibri → Carlito
// when installed), so asking `fc-match` the same question gives the file the slide is drawn with.
// Answers are cached per process: fc-match costs a few milliseconds and layout asks constantly.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export interface FontFileRef {
  /** The face name that was asked for. */
  face: string;
  /** The family fontconfig answered with (differs from `face` when it substituted). */
  family: string;
  file: string;
  /** Face index inside a .ttc collection (0 for a single font file). */
  index: number;
}

export interface FaceQuery {
  face: string;
  bold: boolean;
  /** Ask for a face that covers Chinese, as LibreOffice does for east-Asian runs (lang=zh-cn). */
  cjk: boolean;
}

/** Runs a fontconfig tool; returns stdout, or null when the tool is missing or failed. */
export type FontconfigRunner = (tool: 'fc-match' | 'fc-list', args: string[]) => string | null;

export const runFontconfig: FontconfigRunner = (tool, args) => {
  const r = spawnSync(tool, args, { encoding: 'utf8', timeout: 5_000 });
  if (r.error || r.status !== 0) return null;
  return r.stdout;
};

/** fontconfig pattern syntax treats these as separators inside a family name. */
function escapeFamily(face: string): string {
  return face.replace(/[\\\-:,]/g, (c) => `\\${c}`);
}

export class FontDiscovery {
  private readonly cache = new Map<string, FontFileRef | null>();
  private emoji: string | null | undefined;
  private readonly coverage = new Map<string, string[] | null>();

  constructor(
    private readonly run: FontconfigRunner = runFontconfig,
    private readonly fileExists: (path: string) => boolean = existsSync,
  ) {}

  /** The file fontconfig picks for `face`, or null when fontconfig is missing or the file is gone. */
  find(q: FaceQuery, escape = true): FontFileRef | null {
    const key = `${q.face}|${q.bold ? 'b' : 'r'}|${q.cjk ? 'c' : 'l'}`;
    if (this.cache.has(key)) return this.cache.get(key) ?? null;
    const pattern = `${escape ? escapeFamily(q.face) : q.face}${q.bold ? ':weight=bold' : ''}${q.cjk ? ':lang=zh-cn' : ''}`;
    const out = this.run('fc-match', ['-f', '%{family[0]}\\n%{file}\\n%{index}\\n', pattern]);
    let ref: FontFileRef | null = null;
    if (out !== null) {
      const [family, file, index] = out.split('\n');
      if (family && file && this.fileExists(file)) ref = { face: q.face, family, file, index: Number(index) || 0 };
    }
    this.cache.set(key, ref);
    return ref;
  }

  /**
   * The installed families that have a glyph for `codePoint`: where LibreOffice's glyph fallback can
   * draw it from. Empty when none has it, null when fontconfig is missing (nothing can be said).
   */
  familiesCovering(codePoint: number): string[] | null {
    const key = codePoint.toString(16);
    const cached = this.coverage.get(key);
    if (cached !== undefined) return cached;
    const out = this.run('fc-list', ['--format', '%{family[0]}\\n', `:charset=${key}`]);
    const families = out === null ? null : [...new Set(out.split('\n').filter((f) => f.trim() !== ''))];
    this.coverage.set(key, families);
    return families;
  }

  /**
   * The font LibreOffice draws the emoji `codePoint` with: for a character with emoji presentation its glyph
   * fallback asks fontconfig for the emoji language (und-zsye), not for the run's face. Null when fontconfig
   * is missing or answers with no file.
   */
  emojiFallback(codePoint: number): FontFileRef | null {
    return this.find({ face: `:charset=${codePoint.toString(16)}:lang=und-zsye`, bold: false, cjk: false }, false);
  }

  /** The installed colour emoji family (e.g. "Noto Color Emoji"), or null when there is none. */
  emojiFace(): string | null {
    if (this.emoji !== undefined) return this.emoji;
    // Families that carry 😀 and call themselves emoji; fc-match would always answer *something*.
    const out = this.run('fc-list', ['--format', '%{family[0]}\\n', ':charset=1f600']);
    const families = (out ?? '').split('\n').filter((f) => /emoji/i.test(f));
    this.emoji = families.find((f) => /color/i.test(f)) ?? families[0] ?? null;
    return this.emoji;
  }
}
