// Themes a person adds as JSON files in <data>/themes/. A bad file is reported, not fatal: the
// other themes still load.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILTIN_THEMES, type Theme, ThemeSchema } from '../../../shared/specs/themes';
import { formatIssuePath } from '../../../shared/specs/deck';

export interface UserThemes {
  themes: Theme[];
  errors: string[];
}

export function loadUserThemes(dir: string): UserThemes {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.toLowerCase().endsWith('.json')).sort();
  } catch {
    return { themes: [], errors: [] }; // No themes folder: nothing to load.
  }
  const themes: Theme[] = [];
  const errors: string[] = [];
  for (const name of names) {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(join(dir, name), 'utf8'));
    } catch (err) {
      errors.push(`${name}: not valid JSON (${err instanceof Error ? err.message : String(err)})`);
      continue;
    }
    const parsed = ThemeSchema.safeParse(raw);
    if (!parsed.success) {
      const first = parsed.error.issues.slice(0, 3).map((i) => `${formatIssuePath(i.path) || '(root)'}: ${i.message}`);
      errors.push(`${name}: ${first.join('; ')}`);
      continue;
    }
    const theme = parsed.data;
    if (BUILTIN_THEMES.some((t) => t.name === theme.name) || themes.some((t) => t.name === theme.name)) {
      errors.push(`${name}: a theme named "${theme.name}" already exists`);
      continue;
    }
    themes.push(theme);
  }
  return { themes, errors };
}
