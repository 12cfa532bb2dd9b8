// Research terms jieba's general dictionary lacks, added to it as a user dictionary (jieba's own mechanism for a
// field's vocabulary). Without them jieba reads 数据集 as 数据 + 集 and 预训练 as 预 + 训练, so a line may break
// there and leave a bound part alone at a line's start or end ("数据 / 集", "预 / 训练"), which a reader takes in as
// one word. Each term here has such a part: a suffix that names a kind of thing (集 a set, 率 a rate, 体 an agent), a
// prefix (预, 多, 跨, 自, 半, 弱, 超, 零, 小, 少, 低, 大, 过, 欠, 可) or a fixed phrase (端到端).
//
// Each has the frequency jieba's suggest_freq gives it against the built-in dictionary (the product of its parts'
// frequencies, over the total, plus one): just enough to stay whole where the text would otherwise split it into
// those parts, while a real word across its edge still wins ("测试 / 集成方法", "数据 / 集合"). research-words.test.ts
// recomputes the frequencies from the dictionary.

/** The research terms and their frequencies, one user-dictionary line each ("word frequency tag"). */
export const RESEARCH_WORDS: readonly (readonly [word: string, frequency: number])[] = [
  ['数据集', 1],
  ['训练集', 1],
  ['测试集', 1],
  ['验证集', 1],
  ['开发集', 2],
  ['召回率', 1],
  ['精确率', 1],
  ['智能体', 1],
  ['预训练', 1],
  ['预标注', 1],
  ['多模态', 1],
  ['多语言', 13],
  ['多尺度', 2],
  ['跨模态', 1],
  ['跨语言', 1],
  ['跨领域', 1],
  ['自监督', 5],
  ['自注意力', 1],
  ['半监督', 2],
  ['弱监督', 1],
  ['超参数', 1],
  ['零样本', 1],
  ['小样本', 1],
  ['少样本', 1],
  ['低资源', 5],
  ['大模型', 7],
  ['过拟合', 1],
  ['欠拟合', 1],
  ['可解释性', 1],
  ['端到端', 1],
];

/** The terms as a jieba user dictionary (nouns). */
export function researchDictionary(): Uint8Array {
  return new TextEncoder().encode(RESEARCH_WORDS.map(([word, frequency]) => `${word} ${frequency} n\n`).join(''));
}
