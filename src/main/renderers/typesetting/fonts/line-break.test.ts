import { describe, it, expect } from 'vitest';
import { breakSegments, NO_LINE_END, NO_LINE_START } from './line-break';
import { SAFETY, tableMeasurer } from '../fonts';

const style = { fonts: { latin: 'Arial', cjk: 'Noto Sans CJK SC' }, sizePt: 20 };

describe('breakSegments', () => {
  it('gives back the paragraph exactly when joined', () => {
    const text = '使用 GPT-4 模型提升 35% 的效率，“好”（是）state-of-the-art  x';
    expect(breakSegments(text).join('')).toBe(text);
  });

  it('breaks Latin at spaces and after a hyphen between letters, not before a digit', () => {
    expect(breakSegments('state-of-the-art GPT-4 model')).toEqual(['state-', 'of-', 'the-', 'art ', 'GPT-4 ', 'model']);
  });

  it('breaks CJK between characters but keeps closing marks with the character before them', () => {
    expect(breakSegments('你好，世界。', false)).toEqual(['你', '好，', '世', '界。']);
  });

  it('keeps opening marks with the character after them', () => {
    expect(breakSegments('说《三体》吧', false)).toEqual(['说', '《三', '体》', '吧']);
  });

  it('breaks Chinese between words, never inside one', () => {
    expect(breakSegments('你好，世界。')).toEqual(['你好，', '世界。']);
    expect(breakSegments('城市热岛强度在夏季午后最为明显')).toEqual(['城市热岛', '强度', '在', '夏季', '午后', '最为', '明显']);
    expect(breakSegments('热岛强度等级')).toEqual(['热岛', '强度', '等级']);
  });

  it('keeps a formula, a label and its number, a quantity and its unit together', () => {
    const segments = breakSegments('方法 1 的结果：p < 0.01，升温 0.8 °C，共 5亿元，n = 12 次');
    for (const unit of ['方法 1', 'p < 0.01', '0.8 °C', '5亿', 'n = 12']) expect(segments.some((s) => s.includes(unit)), unit).toBe(true);
    // As the deck sets it, with no typed space between the scripts.
    const typeset = breakSegments('方法1的结果：升温0.8 °C，共5亿元，见图3');
    for (const unit of ['方法1', '0.8 °C', '5亿', '图3']) expect(typeset.some((s) => s.includes(unit)), unit).toBe(true);
    expect(typeset).toContain('升温');
  });

  it('keeps a number with a unit of two characters, and a date whole', () => {
    for (const text of ['降雨量达 201.9 毫米，', '降雨量达201.9毫米，', '持续 3 小时', '提高 4.2 个百分点']) {
      const segments = breakSegments(text);
      const unit = /[\d.]+ ?(?:毫米|小时|个百分点)/u.exec(text)?.[0] ?? '';
      expect(segments.some((s) => s.includes(unit)), `${unit}: ${segments.join(' | ')}`).toBe(true);
    }
    for (const date of ['2023 年 7 月 5 日', '2023年7月5日']) {
      const segments = breakSegments(`在 ${date}的暴雨中`);
      expect(segments.some((s) => s.includes(date)), segments.join(' | ')).toBe(true);
    }
  });

  it('never splits a doubled ellipsis or dash', () => {
    const segments = breakSegments('等等……然后——结束');
    expect(segments.some((s) => s.includes('……'))).toBe(true);
    expect(segments.some((s) => s.includes('——'))).toBe(true);
  });

  it('keeps numbers with their units and currency signs', () => {
    expect(breakSegments('about 12 GB in 3.5 % of $ 5 runs')).toEqual(['about ', '12 GB ', 'in ', '3.5 % ', 'of ', '$ 5 ', 'runs']);
    expect(breakSegments('in 2024 we grew')).toEqual(['in ', '2024 ', 'we ', 'grew']);
  });

  it('does not break at a no-break space', () => {
    expect(breakSegments('Folio\u00A0AI rocks')).toEqual(['Folio\u00A0AI ', 'rocks']);
  });
});

describe('wrap and kinsoku', () => {
  const punctuated = '这是一个用来测试标点禁则的句子，包含逗号、顿号；分号：冒号！感叹号？问号）括号」引号』书名号】和……省略号%百分号。';

  it.each([60, 80, 100, 130, 170])('no line starts with closing punctuation or ends with an opening mark at %d pt', (width) => {
    const lines = tableMeasurer.wrap(`（开头）「引用」${punctuated}《书名》`, style, width);
    expect(lines.length).toBeGreaterThan(1);
    for (const [i, line] of lines.entries()) {
      if (i > 0) expect(NO_LINE_START.has(Array.from(line)[0] ?? ''), `line ${i + 1}: ${line}`).toBe(false);
      if (i < lines.length - 1) expect(NO_LINE_END.has(Array.from(line).at(-1) ?? ''), `line ${i + 1}: ${line}`).toBe(false);
    }
  });

  it('keeps every line within the width, except a single character that cannot fit at all', () => {
    const text = 'Supercalifragilisticexpialidocious 是一个很长的单词 and so is internationalization.';
    for (const width of [30, 55, 90, 140]) {
      const lines = tableMeasurer.wrap(text, style, width);
      for (const line of lines) {
        if (Array.from(line).length > 1) expect(tableMeasurer.widthPt(line, style)).toBeLessThanOrEqual(width + 1e-9);
      }
      expect(lines.join('').replace(/\s/g, '')).toBe(text.replace(/\s/g, ''));
    }
  });

  it('breaks a word longer than the line by character', () => {
    const lines = tableMeasurer.wrap('Pneumonoultramicroscopicsilicovolcanoconiosis', style, 100);
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.join('')).toBe('Pneumonoultramicroscopicsilicovolcanoconiosis');
  });

  it('returns one empty line for an empty paragraph', () => {
    expect(tableMeasurer.wrap('', style, 100)).toEqual(['']);
  });

  it('ends lines without the spaces it broke at', () => {
    const lines = tableMeasurer.wrap('one two three four five six seven', style, 80);
    for (const line of lines) expect(line).toBe(line.trimEnd());
  });

  describe('a line that starts with a full-width opening bracket, set half an em sooner', () => {
    /** A box `em` ems of 20 pt wide, as the measurer's headroom counts it. */
    const ems = (em: number): number => em * 20 * SAFETY;

    it('has that half em more room on a later line, where the slide trims it', () => {
      // "（资料留在电脑）" is 8 em: it fits 7.6 em only with the half em its bracket gives back.
      const text = '本地优先的工具（资料留在电脑）';
      expect(tableMeasurer.wrap(text, style, ems(7.6), { first: true, rest: true })).toEqual(['本地优先的工具', '（资料留在电脑）']);
      expect(tableMeasurer.wrap(text, style, ems(7.6), { first: true, rest: false })).toEqual(['本地优先的工具', '（资料留在', '电脑）']);
      expect(tableMeasurer.wrap(text, style, ems(7.6))).toEqual(['本地优先的工具', '（资料留在', '电脑）']);
    });

    it('has it on the first line, and not by a half em more than that', () => {
      const text = '（本地优先）的工具把资料留在你的电脑上';
      expect(tableMeasurer.wrap(text, style, ems(9.6), { first: true, rest: true })).toEqual(['（本地优先）的工具把', '资料留在你的电脑上']);
      expect(tableMeasurer.wrap(text, style, ems(9.6), { first: false, rest: true })[0]).toBe('（本地优先）的工具');
      expect(tableMeasurer.wrap(text, style, ems(9.4), { first: true, rest: true })[0]).toBe('（本地优先）的工具');
    });
  });
});

describe('Chinese lines a typesetter accepts', () => {
  const corpus = [
    '城市热岛强度在夏季午后最为明显，驱动力主要来自不透水面和人为热排放。',
    '夏季午后热岛效应增强，夜间随风速增加而减弱',
    '方法 1 的召回率提高了 0.8 °C，差异显著（p < 0.01），样本量 n = 120。',
    '十二个站点的观测表明热岛强度等级与建筑密度相关',
    '使用 GPT-4 模型提升 35% 的效率，并把 12 GB 的资料在 3.5 秒内整理成 20 页幻灯片。',
    '城区夏季平均气温比郊区高 0.8 °C，极端高温日数增加 12 天，能耗上升 3.5%。',
    '方法 1 的召回率比基线高 4.2 个百分点，差异显著（p < 0.01），样本量 n = 120。',
  ];
  /** One character alone with its closing marks ("弱。"). */
  const orphan = (line: string): boolean => /^\p{Script=Han}[，。、；：！？）」』]*$/u.test(line);
  /** A number with its unit, or a relation, alone with its closing marks ("3.5%。", "n = 120。"). */
  const loneNumber = (line: string): boolean => /^(?:\p{L} ?[<=>] ?)?\p{N}[\p{N}.]*(?: ?(?:%|°C|\p{Script=Han}))?[，。、；：！？）」』]*$/u.test(line);

  it('never leaves one character or a lone number alone on the last line when the line before can give a phrase up', () => {
    let checked = 0;
    for (const text of corpus) {
      for (let width = 90; width <= 420; width += 7) {
        const lines = tableMeasurer.wrap(text, style, width);
        if (lines.length < 2) continue;
        checked++;
        expect(orphan(lines[lines.length - 1] ?? ''), `${width} pt: ${lines.join(' / ')}`).toBe(false);
        // Below about eight characters a line cannot take the phrase before the number as well.
        if (width >= 160) expect(loneNumber(lines[lines.length - 1] ?? ''), `${width} pt: ${lines.join(' / ')}`).toBe(false);
        expect(lines.join('').replace(/\s/g, '')).toBe(text.replace(/\s/g, ''));
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  /** `unit` as it stands in `text`, with the opening and closing marks that may not be parted from it. */
  const withMarks = (text: string, unit: string): string => {
    const at = text.indexOf(unit);
    if (at < 0) return unit;
    let start = at;
    let end = at + unit.length;
    while (start > 0 && NO_LINE_END.has(text[start - 1] ?? '')) start--;
    while (end < text.length && NO_LINE_START.has(text[end] ?? '')) end++;
    return text.slice(start, end);
  };

  it('never breaks inside a word, a unit or a formula when the line could hold it', () => {
    const whole = ['热岛', '强度', '等级', '午后', '减弱', '驱动力', '0.8 °C', 'p < 0.01', 'n = 120', '12 GB', '35%', '方法 1'];
    for (const text of corpus) {
      for (let width = 90; width <= 420; width += 11) {
        const lines = tableMeasurer.wrap(text, style, width);
        for (let k = 0; k < lines.length - 1; k++) {
          const joint = `${lines[k]}|${lines[k + 1]}`;
          for (const w of whole) {
            // A unit with the brackets and stops around it may be longer than a very short line.
            if (tableMeasurer.widthPt(withMarks(text, w), style) > width) continue;
            for (let cut = 1; cut < w.length; cut++) {
              const left = w.slice(0, cut).trimEnd();
              const right = w.slice(cut).trimStart();
              expect(joint.includes(`${left}|${right}`) && text.includes(w), `${width} pt splits "${w}": ${lines.join(' / ')}`).toBe(false);
            }
          }
        }
      }
    }
  });

  describe('a bracketed formula longer than the line', () => {
    const formulas = [
      '差异显著（p < 0.01），效果稳定。',
      '差异显著（p < 0.01, n = 120），效果稳定。',
      '两组之间（t(58) = 3.21, p < 0.01），且方向一致。',
      '结果稳健（r ≥ 0.82 / n = 12），见表 2。',
    ];

    it.each([70, 78, 90, 102, 114, 130])('breaks at the spaces inside it, with no closing mark starting a line, at %d pt', (width) => {
      for (const text of formulas) {
        const lines = tableMeasurer.wrap(text, style, width);
        const shown = `${width} pt: ${lines.join(' / ')}`;
        for (const [i, line] of lines.entries()) {
          if (i > 0) expect(NO_LINE_START.has(Array.from(line)[0] ?? ''), shown).toBe(false);
          if (i < lines.length - 1) expect(NO_LINE_END.has(Array.from(line).at(-1) ?? ''), shown).toBe(false);
        }
        expect(lines.join('').replace(/\s/g, ''), shown).toBe(text.replace(/\s/g, ''));
        // A number is cut only when it and its closing marks cannot have a line of their own.
        for (let k = 0; k < lines.length - 1; k++) {
          const cut = /(\d[\d.]*)$/u.exec(lines[k] ?? '')?.[1];
          const rest = /^[\d.]+[^\s\p{Script=Han}]*/u.exec(lines[k + 1] ?? '')?.[0];
          if (cut === undefined || rest === undefined || !/^\d|^\./u.test(rest)) continue;
          expect(tableMeasurer.widthPt(cut + rest, style), `number cut: ${shown}`).toBeGreaterThan(width);
        }
      }
    });

    it('keeps "p < 0.01" whole with its brackets where they fit, and breaks after the relation where they do not', () => {
      const text = '差异显著（p < 0.01），效果稳定。';
      const whole = tableMeasurer.widthPt('（p < 0.01），', style);
      expect(tableMeasurer.wrap(text, style, Math.ceil(whole))).toContain('（p < 0.01），');
      expect(tableMeasurer.wrap(text, style, 90)).toEqual(['差异显著', '（p <', '0.01），', '效果', '稳定。']);
    });
  });
});
