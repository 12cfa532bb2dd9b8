// Dense and sparse sample slides for every layout the engine plans, for tests (plan geometry,
// rendered word positions) and for looking at the result. Images are resolved from `imageDir`.
import { type DeckSlide, type DeckSpecInput } from '../../../../shared/specs/deck';

const long = (n: number, zh = false): string =>
  Array.from({ length: n }, (_, i) => (zh ? `第${i + 1}项要点说明文字` : `point ${i + 1} explained in a few plain words`)).join(zh ? '，' : '; ');

export function sampleSlides(image: string): { sparse: DeckSlide[]; dense: DeckSlide[] } {
  const sparse: DeckSlide[] = [
    { layout: 'title', title: 'Quarterly review', subtitle: 'Where we are' },
    { layout: 'section', title: 'Results' },
    { layout: 'bullets', title: 'Three things', bullets: ['Revenue up', 'Costs flat', '新客户 增长'] },
    { layout: 'two_column', title: 'Before and after', left: { bullets: ['Manual', 'Slow'] }, right: { text: '自动，快速' } },
    { layout: 'image', title: 'The pipeline', image, caption: 'Three stages' },
    { layout: 'quote', quote: 'Simple beats clever.', by: 'A reviewer' },
    { layout: 'agenda', items: ['Context', 'Results', 'Next steps'] },
    { layout: 'image_text', title: 'How it works', image, text: 'Each claim links to its page.', image_side: 'left' },
    { layout: 'full_image', image, title: 'The lab', caption: '实验室一角' },
    { layout: 'closing' },
  ];
  const dense: DeckSlide[] = [
    { layout: 'title', title: 'A considerably longer deck title that needs two lines on a hero slide to be read in full', subtitle: long(3) },
    { layout: 'section', title: 'A section title that runs rather long for a divider slide', subtitle: long(4, true) },
    { layout: 'bullets', title: 'Twelve points of sixty characters each on one slide, with a two-line title', bullets: Array.from({ length: 12 }, (_, i) => `Point ${i + 1}: a bullet of about sixty characters in length`) },
    { layout: 'bullets', title: '八个短要点', bullets: Array.from({ length: 8 }, (_, i) => `短要点 ${i + 1}`) },
    { layout: 'bullets', title: 'Long bullets', bullets: Array.from({ length: 5 }, () => `${long(2)}. ${long(6)}`) },
    { layout: 'two_column', title: 'Two dense columns', left: { bullets: Array.from({ length: 9 }, () => long(2)) }, right: { text: long(12, true) } },
    { layout: 'image', title: 'A picture with a long caption', image, caption: long(4) },
    { layout: 'quote', title: 'What they said', quote: long(40), by: 'Someone with a long name, Institute of Things' },
    { layout: 'agenda', title: '议程', items: Array.from({ length: 12 }, (_, i) => (i % 2 ? `Item ${i + 1} with a longer description of the part` : `第 ${i + 1} 部分`)) },
    { layout: 'image_text', title: 'Picture and bullets', image, bullets: Array.from({ length: 8 }, () => long(2)), image_side: 'right' },
    { layout: 'full_image', image, title: 'A long title over the picture that may need two lines to be set in the band', caption: long(5) },
    { layout: 'closing', title: 'Thank you — questions and discussion', subtitle: long(3) },
  ];
  return { sparse, dense };
}

/** The edge spec: a 200-character title, a 2,000-character quote, 12 bullets of 60 characters, 30 rows, emoji. */
export function edgeSpec(): DeckSpecInput {
  const title = 'A title that goes on and on about the point '.repeat(5).slice(0, 200);
  return {
    title: 'Edge cases 🚀',
    slides: [
      { layout: 'bullets', title, bullets: ['One point 🎉'] },
      { layout: 'quote', quote: 'Long quote words '.repeat(118).slice(0, 2000) },
      { layout: 'bullets', title: 'Twelve bullets', bullets: Array.from({ length: 12 }, (_, i) => `${String(i + 1).padStart(2, '0')} ${'sixty characters of bullet text for the edge case'.padEnd(57, '.')}`) },
      { layout: 'table', title: 'Thirty rows', table: { header: ['Name', 'Recall', 'Precision'], rows: Array.from({ length: 30 }, (_, i) => [`Model ${i + 1}`, `${50 + i}.5`, `${60 + i}.0`]) } },
    ],
  };
}
