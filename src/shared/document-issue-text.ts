// A document finding said in the person's language from the facts the engine gives with it (`params`):
// the engine's own message is English and addressed to whoever fixes the source, often the model.
// The app's preview and `folio render` both say it, from the shared `report` strings.
import type { Say } from './locales/say';

/** What a sentence is made from: the issue's kind and the facts the engine gave with it. */
export interface DocumentIssueFacts {
  kind: string;
  /** missing_section: the section the template expects, as its heading reads. */
  expected?: string;
  params?: Record<string, string | number | undefined>;
}

/** CSL fields a reference list needs, in the order the engine checks them; any other is named as written. */
const BIB_FIELDS = new Set(['author', 'title', 'container-title', 'publisher', 'issued', 'URL', 'accessed']);

/**
 * The sentence for an issue, or null when its kind has none or the report predates the facts (the
 * kind's general explanation is then all there is).
 */
export function documentIssueText(issue: DocumentIssueFacts, t: Say): string | null {
  const p = issue.params ?? {};
  const facts = Object.fromEntries(Object.entries(p).filter((entry): entry is [string, string | number] => entry[1] !== undefined));
  const say = (key: string, values: Record<string, string | number> = {}): string => t(`report.docIssueText.${key}`, { ...facts, ...values });
  const has = (...names: string[]): boolean => names.every((name) => p[name] !== undefined && p[name] !== '');
  switch (issue.kind) {
    case 'missing_section':
      return issue.expected ? t('report.docIssueHelp.missing_sectionNamed', { section: issue.expected }) : null;
    case 'missing_image':
      if (!has('image')) return null;
      return say(p.construct === 'image_path' ? 'missing_image_path' : 'missing_image');
    case 'unsupported_markdown':
      if (!has('construct')) return null;
      if (p.construct !== 'html' && p.construct !== 'block' && p.construct !== 'image_inline' && !has('image')) return null;
      return say(`unsupported_${String(p.construct)}`, {});
    case 'empty_section':
      return has('heading') ? say('empty_section_heading') : null;
    case 'long_paragraph':
      return has('units', 'limit') ? say('long_paragraph') : null;
    case 'undefined_footnote':
      return has('label') ? say('undefined_footnote') : null;
    case 'empty_list_item':
      return has('item') ? say('empty_list_item') : null;
    case 'image_upscaled':
      return has('image', 'dpi', 'limit', 'needed') ? say('image_upscaled') : null;
    case 'unknown_reference':
      return has('id', 'label') ? say('unknown_reference') : null;
    case 'duplicate_id':
      return has('id') ? say('duplicate_id') : null;
    case 'unknown_citation':
      if (!has('key')) return null;
      return say(p.bibliography === 'none' ? 'unknown_citation_none' : 'unknown_citation');
    case 'uncited_reference':
      return has('count', 'keys') ? say('uncited_reference') : null;
    case 'incomplete_reference': {
      if (!has('key', 'fields')) return null;
      const fields = String(p.fields)
        .split(',')
        .map((field) => (BIB_FIELDS.has(field) ? t(`report.bibField.${field}`, {}) : field))
        .join(t('report.listJoiner', {}));
      return say('incomplete_reference', { fields });
    }
    case 'uncaptioned_table':
      return has('label') ? say('uncaptioned_table') : null;
    case 'table_too_wide':
      return has('columns') ? say('table_too_wide') : null;
    case 'missing_glyph': {
      const parts = [has('chars') ? say('missing_glyph') : '', has('blank') ? say('missing_glyph_blank') : ''].filter((s) => s !== '');
      return parts.length > 0 ? parts.join(' ') : null;
    }
    case 'section_length':
      if (has('units', 'limit', 'name')) return say('section_length_chars');
      if (has('pages', 'min', 'max', 'name', 'direction')) return say(p.direction === 'under' ? 'section_length_under' : 'section_length_over');
      return null;
    default:
      return null;
  }
}
