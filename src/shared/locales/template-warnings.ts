// How an imported template's warnings read (`templateWarning`), for Settings › Templates and
// `folio render --template`: one sentence per kind, and the names of the fonts' and titles' roles.
// The catalog's type makes a kind without a sentence in either language a compile error where it is
// loaded (late-strings.ts). This module holds no strings.
import type { FontRole, TemplateWarning, TitleRole } from '../specs/template-warnings';

export interface TemplateWarningCatalog {
  templateWarning: {
    /** Between names in a list (colour slots, placeholder kinds). */
    listSeparator: string;
    fontRole: Record<FontRole, string>;
    titleRole: Record<TitleRole, string>;
    sentence: Record<TemplateWarning['kind'], string>;
  };
}
