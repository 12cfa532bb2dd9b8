// The sample deck a template's import preview shows: one slide of each kind that needs no picture
// file, written in the language of the person's screen (the preview is for them, not a test).
// One slide list whose every text carries all UI languages, so a slide cannot exist in one only.
import { type DeckSlide, type DeckSpecInput } from '../../../../shared/specs/deck';
import { type LocalizedText, type UiLanguage } from '../../../../shared/contract';

const DECK: LocalizedText = { en: 'Quarterly review', 'zh-CN': '季度回顾' };

type In = (text: LocalizedText) => string;
type Many = (texts: readonly LocalizedText[]) => string[];

const SLIDES: ReadonlyArray<(t: In, all: Many) => DeckSlide> = [
  (t) => ({ layout: 'title', title: t(DECK), subtitle: t({ en: 'Where we are', 'zh-CN': '我们走到了哪里' }) }),
  (t) => ({ layout: 'section', title: t({ en: 'Results', 'zh-CN': '成果' }) }),
  (t, all) => ({
    layout: 'bullets',
    title: t({ en: 'Three things', 'zh-CN': '三件事' }),
    bullets: all([
      { en: 'Revenue up', 'zh-CN': '收入增长' },
      { en: 'Costs flat', 'zh-CN': '成本持平' },
      { en: 'New customers growing', 'zh-CN': '新客户增加' },
    ]),
  }),
  (t, all) => ({
    layout: 'two_column',
    title: t({ en: 'Before and after', 'zh-CN': '改进前后' }),
    left: { bullets: all([{ en: 'Manual', 'zh-CN': '手工操作' }, { en: 'Slow', 'zh-CN': '速度慢' }]) },
    right: { text: t({ en: 'Automatic and fast', 'zh-CN': '自动，快速' }) },
  }),
  (t) => ({ layout: 'quote', quote: t({ en: 'Simple beats clever.', 'zh-CN': '简单胜过巧妙。' }), by: t({ en: 'A reviewer', 'zh-CN': '一位评审人' }) }),
  (_t, all) => ({
    layout: 'agenda',
    items: all([{ en: 'Context', 'zh-CN': '背景' }, { en: 'Results', 'zh-CN': '成果' }, { en: 'Next steps', 'zh-CN': '下一步' }]),
  }),
  (t) => ({
    layout: 'stat',
    title: t({ en: 'Recall rose by twelve points', 'zh-CN': '召回率提高了 12 个百分点' }),
    stats: [{ value: '+12 pp', label: t({ en: 'Recall', 'zh-CN': '召回率' }) }],
  }),
  (t) => ({
    layout: 'cards',
    title: t({ en: 'Two things matter', 'zh-CN': '两件事最重要' }),
    cards: [{ title: t({ en: 'Speed', 'zh-CN': '速度' }) }, { title: t({ en: 'Trust', 'zh-CN': '可信' }), icon: 'shield-check' }],
  }),
  () => ({ layout: 'closing' }),
];

export function previewDeck(language: UiLanguage): DeckSpecInput {
  const t: In = (text) => text[language];
  const all: Many = (texts) => texts.map(t);
  return { title: t(DECK), author: 'Folio', date: '2025', theme: 'academic', slides: SLIDES.map((slide) => slide(t, all)) };
}
