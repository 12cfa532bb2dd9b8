// The sample deck a template's import preview shows: one slide of each kind that needs no picture
// file, written in the language of the person's screen (the preview is for them, not a test).
import { type DeckSlide, type DeckSpecInput } from '../../../../shared/specs/deck';
import { type UiLanguage } from '../../../../shared/contract';

interface SampleText {
  deck: string;
  author: string;
  subtitle: string;
  section: string;
  bulletsTitle: string;
  bullets: string[];
  columnsTitle: string;
  left: string[];
  right: string;
  quote: string;
  quoteBy: string;
  agenda: string[];
  statTitle: string;
  stat: { value: string; label: string };
  cardsTitle: string;
  cards: [string, string];
}

const TEXT: Record<UiLanguage, SampleText> = {
  en: {
    deck: 'Quarterly review',
    author: 'Folio',
    subtitle: 'Where we are',
    section: 'Results',
    bulletsTitle: 'Three things',
    bullets: ['Revenue up', 'Costs flat', 'New customers growing'],
    columnsTitle: 'Before and after',
    left: ['Manual', 'Slow'],
    right: 'Automatic and fast',
    quote: 'Simple beats clever.',
    quoteBy: 'A reviewer',
    agenda: ['Context', 'Results', 'Next steps'],
    statTitle: 'Recall rose by twelve points',
    stat: { value: '+12 pp', label: 'Recall' },
    cardsTitle: 'Two things matter',
    cards: ['Speed', 'Trust'],
  },
  'zh-CN': {
    deck: '季度回顾',
    author: 'Folio',
    subtitle: '我们走到了哪里',
    section: '成果',
    bulletsTitle: '三件事',
    bullets: ['收入增长', '成本持平', '新客户增加'],
    columnsTitle: '改进前后',
    left: ['手工操作', '速度慢'],
    right: '自动，快速',
    quote: '简单胜过巧妙。',
    quoteBy: '一位评审人',
    agenda: ['背景', '成果', '下一步'],
    statTitle: '召回率提高了 12 个百分点',
    stat: { value: '+12 pp', label: '召回率' },
    cardsTitle: '两件事最重要',
    cards: ['速度', '可信'],
  },
};

export function previewDeck(language: UiLanguage): DeckSpecInput {
  const t = TEXT[language];
  const slides: DeckSlide[] = [
    { layout: 'title', title: t.deck, subtitle: t.subtitle },
    { layout: 'section', title: t.section },
    { layout: 'bullets', title: t.bulletsTitle, bullets: t.bullets },
    { layout: 'two_column', title: t.columnsTitle, left: { bullets: t.left }, right: { text: t.right } },
    { layout: 'quote', quote: t.quote, by: t.quoteBy },
    { layout: 'agenda', items: t.agenda },
    { layout: 'stat', title: t.statTitle, stats: [t.stat] },
    { layout: 'cards', title: t.cardsTitle, cards: [{ title: t.cards[0] }, { title: t.cards[1], icon: 'shield-check' }] },
    { layout: 'closing' },
  ];
  return { title: t.deck, author: t.author, date: '2025', theme: 'academic', slides };
}
