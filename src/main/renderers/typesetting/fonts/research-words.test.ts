// Research terms stay whole in jieba's segmentation, at the frequencies jieba's suggest_freq gives them.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { breakSegments } from './line-break';
import { RESEARCH_WORDS } from './research-words';

type Jieba = { cut(text: string, hmm?: boolean | null): string[] };
const require = createRequire(import.meta.url);
const { Jieba: JiebaClass } = require('@node-rs/jieba') as { Jieba: { withDict(dict: Uint8Array): Jieba } };
const { dict } = require('@node-rs/jieba/dict') as { dict: Uint8Array };

describe('research terms in the word segmentation', () => {
  it('keeps each term whole in a sentence, and a line never breaks inside it', () => {
    expect(breakSegments('在三个数据集上开展研究')).toEqual(['在', '三个', '数据集', '上', '开展', '研究']);
    expect(breakSegments('训练集与测试集划分')).toEqual(['训练集', '与', '测试集', '划分']);
    expect(breakSegments('多模态大模型的预训练方法')).toEqual(['多模态', '大模型', '的', '预训练', '方法']);
    expect(breakSegments('召回率和精确率均提升')).toEqual(['召回率', '和', '精确率', '均', '提升']);
    for (const [word] of RESEARCH_WORDS) expect(breakSegments(`构建${word}上的方法`), word).toContain(word);
  });

  it('still lets a real word across a term’s edge win', () => {
    expect(breakSegments('测试集成方法')).toEqual(['测试', '集成', '方法']);
    expect(breakSegments('数据集合')).toEqual(['数据', '集合']);
    expect(breakSegments('特大模型')).toEqual(['特大', '模型']);
  });

  it('gives each term the frequency jieba’s suggest_freq gives it against the built-in dictionary', () => {
    const frequencies = new Map<string, number>();
    let total = 0;
    for (const line of new TextDecoder().decode(dict).split('\n')) {
      const [word, count] = line.split(' ');
      if (!word || count === undefined) continue;
      frequencies.set(word, Number(count));
      total += Number(count);
    }
    const plain = JiebaClass.withDict(dict);
    for (const [word, frequency] of RESEARCH_WORDS) {
      // suggest_freq: the product of the parts' probabilities, as a count, plus one.
      const product = plain.cut(word, false).reduce((p, part) => p * ((frequencies.get(part) ?? 1) / total), 1);
      expect(frequency, word).toBe(Math.max(Math.floor(product * total) + 1, frequencies.get(word) ?? 1));
    }
  });
});
