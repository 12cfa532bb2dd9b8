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

const longText = (n: number, zh = false): string => (zh ? '混合检索在长尾查询上的召回明显更高'.repeat(Math.ceil(n / 16)).slice(0, n) : 'retrieval quality improves on long tail queries '.repeat(Math.ceil(n / 48)).slice(0, n).trim());

/** A sparse and a dense slide of each visual layout (stat, cards, timeline, process, comparison). */
export function visualSamples(): Record<string, { sparse: DeckSlide; dense: DeckSlide }> {
  return {
  stat: {
    sparse: { layout: 'stat', title: 'Recall rose by twelve points', stats: [{ value: '+12 pp', label: 'Recall' }] },
    dense: {
      layout: 'stat',
      title: longText(150),
      stats: [
        { value: '82.5%', label: longText(80), detail: longText(200) },
        { value: '¥1,234,567,890', label: '召回率提升显著且稳定', detail: longText(200, true) },
        { value: '3.2×', label: 'Faster', detail: longText(300) },
      ],
    },
  },
  cards: {
    sparse: { layout: 'cards', title: 'Two things matter', cards: [{ title: 'Speed' }, { title: 'Trust', icon: 'shield-check' }] },
    dense: {
      layout: 'cards',
      title: longText(120),
      cards: Array.from({ length: 4 }, (_, i) => ({ title: longText(90), text: i % 2 ? longText(400, true) : longText(400), icon: 'rocket' })),
    },
  },
  timeline: {
    sparse: { layout: 'timeline', title: 'Two milestones', events: [{ date: '2024', title: 'Pilot' }, { date: '2025', title: 'Launch' }] },
    dense: { layout: 'timeline', title: longText(140), events: Array.from({ length: 6 }, (_, i) => ({ date: `Q${(i % 4) + 1} 202${i}`, title: longText(80), text: longText(300) })) },
  },
  process: {
    sparse: { layout: 'process', title: 'Three steps', steps: [{ title: 'Read' }, { title: 'Write' }, { title: 'Check' }] },
    dense: { layout: 'process', title: longText(140), steps: Array.from({ length: 5 }, (_, i) => ({ title: longText(60), text: longText(260, i % 2 === 1), icon: 'chart-line' })) },
  },
  comparison: {
    sparse: { layout: 'comparison', title: 'A or B', options: [{ name: 'A', points: ['cheap'] }, { name: 'B', points: ['fast'] }] },
    dense: {
      layout: 'comparison',
      title: longText(140),
      recommended: 'Hybrid',
      options: ['BM25', 'Dense', 'Hybrid'].map((name) => ({ name, points: Array.from({ length: 6 }, () => longText(110)), verdict: longText(150) })),
    },
  },
};
}
