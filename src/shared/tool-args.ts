// Tool arguments arrive as the model wrote them: a JSON string that is usually, not always, valid.

export type ParsedArgs = { ok: true; value: Record<string, unknown> } | { ok: false; raw: string };

export function parseToolArgs(raw: string): ParsedArgs {
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return { ok: true, value: value as Record<string, unknown> };
  } catch {
    // fall through: show the raw text
  }
  return { ok: false, raw };
}

export function prettyArgs(raw: string): string {
  const parsed = parseToolArgs(raw);
  return parsed.ok ? JSON.stringify(parsed.value, null, 2) : parsed.raw;
}

function firstString(args: Record<string, unknown>, keys: string[]): string | null {
  for (const key of keys) {
    const value = args[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return null;
}

/** The one field a person needs to judge a call at a glance: the command, path, URL or query. */
export function headlineOf(raw: string): string | null {
  const parsed = parseToolArgs(raw);
  if (!parsed.ok) return null;
  return firstString(parsed.value, ['command', 'cmd', 'path', 'file', 'url', 'query', 'pattern', 'name']);
}

export function commandOf(raw: string): string | null {
  const parsed = parseToolArgs(raw);
  return parsed.ok ? firstString(parsed.value, ['command', 'cmd', 'script']) : null;
}

export function pathOf(raw: string): string | null {
  const parsed = parseToolArgs(raw);
  return parsed.ok ? firstString(parsed.value, ['path', 'file', 'file_path', 'target']) : null;
}
