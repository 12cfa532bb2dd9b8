import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import { needsGap, plainTranslate } from './plain-spacing';

async function translateOver(strings: Record<string, string>) {
  const i18n = createInstance();
  await i18n.init({ resources: { 'zh-CN': { translation: strings } }, lng: 'zh-CN', interpolation: { escapeValue: false } });
  return plainTranslate((key, values: Record<string, string | number>) => i18n.t(key, values));
}

describe('plain-text spacing', () => {
  it('puts the gap where the browser draws one: an ideograph beside a Latin letter or digit', () => {
    expect(needsGap('量', 'D')).toBe(true);
    expect(needsGap('3', '页')).toBe(true);
    expect(needsGap('é', '字')).toBe(true);
    expect(needsGap('：', 'D')).toBe(false);
    expect(needsGap('量', '“')).toBe(false);
    expect(needsGap('量', 'Ｄ')).toBe(false);
    expect(needsGap('a', 'b')).toBe(false);
  });

  it("spaces the template's own boundaries and a value's edges", async () => {
    const t = await translateOver({
      hint: '从环境变量{{name}}读取密钥',
      source: '来源：{{file}}第{{page}}页',
      saved: '.pptx演示文稿已写入{{path}}。',
      ok: '可以使用：{{profile}}已回复。',
    });
    expect(t('hint', { name: 'DEEPSEEK_API_KEY' })).toBe('从环境变量 DEEPSEEK_API_KEY 读取密钥');
    expect(t('source', { file: 'x.pdf', page: 3 })).toBe('来源：x.pdf 第 3 页');
    expect(t('ok', { profile: '本地模型' })).toBe('可以使用：本地模型已回复。');
    expect(t('ok', { profile: 'DeepSeek' })).toBe('可以使用：DeepSeek 已回复。');
    expect(t('saved', { path: 'work/deck.pptx' })).toBe('.pptx 演示文稿已写入 work/deck.pptx。');
  });

  it('leaves a value as it is, Han and Latin in it alike', async () => {
    const t = await translateOver({ saved: '已写入{{path}}', opened: '打开{{name}}失败', two: '{{a}}{{b}}' });
    expect(t('saved', { path: 'work/数据.csv' })).toBe('已写入 work/数据.csv');
    expect(t('opened', { name: '第3章.md' })).toBe('打开第3章.md 失败');
    expect(t('opened', { name: 'Ctrl+K 与GB/T 7714' })).toBe('打开 Ctrl+K 与GB/T 7714 失败');
    expect(t('two', { a: '第3章', b: 'v2' })).toBe('第3章v2');
    // A value that starts or ends with an ASCII mark is a Latin word to the reader.
    expect(t('opened', { name: '--model' })).toBe('打开 --model 失败');
    expect(t('saved', { path: '/tmp/报告(2)' })).toBe('已写入 /tmp/报告(2)');
  });

  it('sets off a money amount, a negative number or a path beside Chinese as a Latin word, and keeps a range or path whole', async () => {
    const t = await translateOver({ cost: '费用{{cost}}', cooled: '降温{{delta}}°C', saved: '已写入{{path}}', pages: '第{{range}}页' });
    expect(t('cost', { cost: '¥0.07' })).toBe('费用 ¥0.07');
    expect(t('cost', { cost: '€1.20' })).toBe('费用 €1.20');
    expect(t('cost', { cost: 'US$0.0012' })).toBe('费用 US$0.0012');
    expect(t('cooled', { delta: '−0.8' })).toBe('降温 −0.8°C');
    expect(t('saved', { path: '-draft/数据.csv' })).toBe('已写入 -draft/数据.csv');
    expect(t('pages', { range: '3-5' })).toBe('第 3-5 页');
    // A full-width yen sign is a Chinese character's width and takes no gap.
    expect(t('cost', { cost: '￥0.07' })).toBe('费用￥0.07');
  });

  it('keeps plurals and other i18next options working', async () => {
    const t = await translateOver({ files_other: '{{count}}个文件（{{what}}）', greet_male: '{{name}}先生' });
    expect(t('files', { count: 1, what: '数据.csv' })).toBe('1 个文件（数据.csv）');
    expect(t('files', { count: 12, what: 'PDF' })).toBe('12 个文件（PDF）');
    expect(t('greet', { context: 'male', name: 'Li' })).toBe('Li 先生');
  });
});
