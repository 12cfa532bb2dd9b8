// How long the template's sections came out against what the funder and reviewers expect
// (`templateLengthGuides` in shared/specs/document.ts): characters from the Markdown, pages from where
// LibreOffice put the headings. A guide covers one outline entry or several together, from the first
// heading that matches them to the end of the last one's part (up to the next heading of the same or a
// higher level). A combined heading ("研究目标、研究内容和拟解决的关键科学问题") can't be split, so a guide
// for one of the entries it combines is not checked in pages or characters; a group that holds it is.
import { type Nodes } from 'mdast';
import { matchesOutlineEntryAt, type OutlineEntry, templateLengthGuides, templateOutline } from '../../../shared/specs/document';
import { type DocumentTemplateName } from '../../../shared/specs/document';
import { type LoadedDocument } from './load-folder';
import { parseMarkdown } from './markdown';
import { plainText } from './mdast-text';
import { type DocumentIssue } from './report';
import { countCjkChars, countWords } from './text-metrics';

/** Headings the contents lists (`TOC \o "1-3"`). */
const CONTENTS_DEPTH = 3;

export type OutlineHeading = {
  section: string;
  depth: number;
  text: string;
  /** Characters (Han characters + Latin words) between this heading and the next one of any level. */
  units: number;
};

/** Every heading of the document in order, with the size of the text under it. */
export function outlineHeadings(loaded: LoadedDocument): OutlineHeading[] {
  const out: OutlineHeading[] = [];
  for (const section of loaded.sections) {
    for (const node of parseMarkdown(section.markdown).children) {
      if (node.type === 'heading') {
        out.push({ section: section.file, depth: node.depth, text: plainText(node).trim(), units: 0 });
        continue;
      }
      const text = node.type === 'footnoteDefinition' ? node.children.map((c: Nodes) => plainText(c)).join('\n') : plainText(node);
      const current = out.at(-1);
      if (current) current.units += countCjkChars(text) + countWords(text);
    }
  }
  return out;
}

/** Where a heading is on the laid-out pages, in pages from the first body page (2.5 = halfway down the third). */
export type PagePosition = number;

type Extent = { start: number; end: number };

/** The heading's part: from it to the next heading of the same or a higher level. */
function extentOf(headings: readonly OutlineHeading[], index: number): Extent {
  const depth = headings[index]?.depth ?? 1;
  const next = headings.findIndex((h, i) => i > index && h.depth <= depth);
  return { start: index, end: next < 0 ? headings.length : next };
}

function matchedHeading(headings: readonly OutlineHeading[], entry: OutlineEntry, outline: readonly OutlineEntry[]): { index: number; alone: boolean } | null {
  const all = headings.flatMap((h, index) => (h.depth <= CONTENTS_DEPTH && matchesOutlineEntryAt(entry, h) ? [index] : []));
  // At the level the outline puts the entry (the shallowest match for an entry without one): a subsection that
  // happens to contain an alias ("1.1 技术路线" inside 立项依据) does not stand for 研究方案.
  const shallowest = Math.min(...all.map((i) => headings[i]?.depth ?? CONTENTS_DEPTH));
  const matches = all.filter((i) => headings[i]?.depth === shallowest);
  const alone = matches.find((i) => {
    const heading = headings[i];
    return heading !== undefined && outline.filter((e) => matchesOutlineEntryAt(e, heading)).length === 1;
  });
  if (alone !== undefined) return { index: alone, alone: true };
  return matches[0] === undefined ? null : { index: matches[0], alone: false };
}

const formatPages = (n: number): string => (Math.round(n * 10) / 10).toString();

/**
 * The `section_length` issues. `positions[i]` is where heading i starts on the pages (null when it
 * was not found, or the pages were not laid out); `end` where the body ends. Characters are checked
 * either way, pages only with positions.
 */
export function sectionLengthIssues(
  template: DocumentTemplateName,
  headings: readonly OutlineHeading[],
  positions: readonly (PagePosition | null)[] | null,
  end: PagePosition | null,
): DocumentIssue[] {
  const outline = templateOutline(template);
  const issues: DocumentIssue[] = [];
  for (const guide of templateLengthGuides(template)) {
    const entries = guide.sections.map((title) => outline.find((e) => e.title === title)).filter((e): e is OutlineEntry => e !== undefined);
    const matched = entries.map((e) => matchedHeading(headings, e, outline)).filter((m): m is { index: number; alone: boolean } => m !== null);
    if (matched.length === 0) continue;
    // One entry sharing its heading with others can't be measured alone.
    if (guide.sections.length === 1 && !matched[0]?.alone) continue;
    const first = Math.min(...matched.map((m) => m.index));
    const last = Math.max(...matched.map((m) => m.index));
    const extent = { start: first, end: extentOf(headings, last).end };
    const start = headings[first];
    if (!start) continue;
    const place = { section: start.section, heading: start.text };
    const name = guide.sections.length === 1 ? start.text : `${guide.sections[0]} … ${guide.sections.at(-1)}`;

    const units = headings.slice(extent.start, extent.end).reduce((n, h) => n + h.units, 0);
    if (guide.maxChars !== undefined && units > guide.maxChars) {
      issues.push({
        kind: 'section_length',
        ...place,
        params: { name, units, limit: guide.maxChars },
        message: `"${name}" has ${units} characters/words, over the ${guide.maxChars} recommended (${guide.basis}); tighten it`,
      });
    }
    const from = positions?.[extent.start] ?? null;
    const to = extent.end < headings.length ? (positions?.[extent.end] ?? null) : end;
    if (guide.pages && from !== null && to !== null) {
      const pages = to - from;
      const [min, max] = guide.pages;
      if (pages > max || pages < min) {
        const how = pages > max ? 'over' : 'under';
        issues.push({
          kind: 'section_length',
          ...place,
          params: { name, pages: Number(formatPages(pages)), min, max, direction: how },
          message: `"${name}" takes ${formatPages(pages)} pages, ${how} the ${min}–${max} recommended (${guide.basis})`,
        });
      }
    }
  }
  return issues;
}
