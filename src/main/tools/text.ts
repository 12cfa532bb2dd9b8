// Small text helpers shared by the file tools.

/** A file is treated as binary when its first 8 KB hold a NUL byte (git's heuristic). */
export function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, 8192);
  for (let i = 0; i < end; i += 1) if (bytes[i] === 0) return true;
  return false;
}

/** Splits text into lines, accepting LF and CRLF; a final newline does not start a new line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/u);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function cutLine(line: string, max: number): string {
  return line.length > max ? `${line.slice(0, max)}… [line cut at ${max} of ${line.length} chars]` : line;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function errnoCode(err: unknown): string | undefined {
  if (err instanceof Error && 'code' in err && typeof err.code === 'string') return err.code;
  return undefined;
}
