// An imported template's warning in the person's language, for Settings › Templates and
// `folio render --template`: the sentence for its kind (src/shared/locales/templates) with the
// layout, font and style names and colours it carries, which are shown as they are.
import type { TemplateWarning } from './specs/template-warnings';
import type { Say } from './locales/say';

/** Colours are carried as hex without '#' and shown with it, as one value (so a terminal spaces it as one). */
const COLOURS = ['colour', 'behind', 'chosen'] as const;

export function templateWarningText(warning: TemplateWarning, t: Say): string {
  const key = `templateWarning.sentence.${warning.kind}`;
  const list = (names: string[]) => names.join(t('templateWarning.listSeparator', {}));
  const values: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(warning)) {
    if (typeof value === 'string' || typeof value === 'number') values[name] = (COLOURS as readonly string[]).includes(name) ? `#${value}` : value;
  }
  switch (warning.kind) {
    case 'theme_colours_missing':
      return t(key, { slots: list(warning.slots) });
    case 'unfilled_placeholders':
      return t(key, { types: list(warning.types) });
    case 'latin_font_unusable':
    case 'cjk_font_unknown':
      return t(key, { ...values, role: t(`templateWarning.fontRole.${warning.role}`, {}) });
    case 'title_colour_hard':
      return t(key, { ...values, title: t(`templateWarning.titleRole.${warning.title}`, {}) });
    default:
      return t(key, values);
  }
}
