// A table's Chinese cells break between words and leave no character alone, at the widths LibreOffice is given.
import { describe, expect, it } from 'vitest';
import { createTextMeasurer } from '../typesetting/fonts';
import { breakFaults, breaksBetweenWords, CELL_MARGINS, type CellText, characterBreakLines, cleanBreakWidths } from './cell-breaks';
import { documentMeasureStyle } from './measure-style';

const measurer = createTextMeasurer();
const STYLE = documentMeasureStyle('body', 'zh-CN', 10.5);
const cells = (...texts: string[]) => texts.map((text, i) => ({ text, bold: i === 0 }));

describe('table cell breaks', () => {
  it('finds the orphan and the broken word that character breaking leaves', () => {
    expect(breaksBetweenWords('重复执行率 / 丢失率', ['重复执行率 / 丢失', '率'])).toBe(false);
    expect(breaksBetweenWords('渲染后检查、规则形式化', ['渲染后检查、规则形式', '化'])).toBe(false);
    expect(breaksBetweenWords('预写日志、调用状态机、幂等重放', ['预写日志、调用状态', '机、幂等重放'])).toBe(false);
    expect(breaksBetweenWords('重复执行率 / 丢失率', ['重复执行率 / ', '丢失率'])).toBe(true);
    expect(breaksBetweenWords('预写日志、调用状态机、幂等重放', ['预写日志、', '调用状态机、', '幂等重放'])).toBe(true);
  });

  it('counts the same faults at every line end of a cell of three lines or more', () => {
    const text = '构建低资源文档数据集；完成版面结构预训练方法的设计与实现';
    expect(breakFaults(text, ['构建低资源文档数', '据集；完成版面结构预训', '练方法的设计与实现'])).toBe(2);
    expect(breakFaults(text, ['构建低资源文档数据集；完成', '版面结构预训练方法的设计与', '实现'])).toBe(0);
    // a number kept with its unit, and a short bracketed group, in a cell of three lines
    expect(breakFaults('在2种低资源语言上完成验证；发表论文2篇', ['在2种低资源语言', '上完成验证；发表论文2', '篇'])).toBe(1 + 3);
    expect(breakFaults('随机终止注入（10\u202F000次）与真实故障回放', ['随机终止注入（10\u202F000次）', '与真实故障', '回放'])).toBe(0);
    expect(breakFaults('依据《数据安全法》与《个人信息保护法》逐条核对', ['依据《数据安全法》与《个人信息', '保护法》逐条', '核对'])).toBe(1);
  });

  it('counts a line end inside a research term as a broken word', () => {
    expect(breakFaults('在三个数据集上开展研究', ['在三个数据', '集上开展研究'])).toBe(1);
    expect(breakFaults('版面结构预训练方法', ['版面结构预', '训练方法'])).toBe(1);
    expect(breakFaults('在三个数据集上开展研究', ['在三个数据集', '上开展研究'])).toBe(0);
  });

  it('measures a superscript citation at its printed size', () => {
    // LibreOffice 7.4 set the sample proposal's cell, 2838 twips wide with "[5]" a superscript, in these lines.
    const text = 'XFUND[5]、自建少数民族语言数据集';
    const widthPt = (2838 - CELL_MARGINS) / 20;
    expect(characterBreakLines(text, measurer, STYLE, widthPt, [[5, 8]])).toEqual(['XFUND[5]、自建少数民族语', '言数据集']);
    expect(characterBreakLines(text, measurer, STYLE, widthPt)).toEqual(['XFUND[5]、自建少数民族', '语言数据集']);
  });

  it('sets lines as LibreOffice does, between any two Han characters and with no autospace beside a typed space', () => {
    // LibreOffice 7.4 set this cell, 1658 twips wide, in these two lines.
    expect(characterBreakLines('重复执行率 / 丢失率', measurer, STYLE, (1658 - CELL_MARGINS) / 20)).toEqual(['重复执行率 / 丢', '失率']);
    // and between a number and its unit, as it printed the sample plan's 发表论文 2 / 篇.
    const full = measurer.widthPt('在2种低资源语言上完成验证；发表论文2', STYLE);
    expect(characterBreakLines('在2种低资源语言上完成验证；发表论文2篇', measurer, STYLE, full + 0.5)).toEqual(['在2种低资源语言上完成验证；发表论文2', '篇']);
  });

  it('moves column widths until every Chinese cell breaks between words, keeping the total', () => {
    // The walk's table: at these widths LibreOffice printed 重复执行率 / 丢失 / 率 and 贝叶斯更 / 新.
    const columns = [
      cells('研究内容', '可恢复执行模型', '能力探测与对账', '版式质量保证'),
      cells('主要方法', '预写日志、调用状态机、幂等重放', '最小探测集、贝叶斯更新', '渲染后检查、规则形式化'),
      cells('评价数据', '随机终止注入（10\u202F000次）', '12个公开模型服务', '60份真实申报书'),
      cells('评价指标', '重复执行率 / 丢失率', '探测准确率、请求数', '问题检出率、修正率'),
    ];
    const textWidth = 8306;
    const widths = [1800, 2400, 2206, 1900];
    const minimums = [1200, 1200, 1400, 1200];
    const clean = (w: readonly number[]) =>
      columns.every((column, c) => column.every((cell) => breaksBetweenWords(cell.text, characterBreakLines(cell.text, measurer, { ...STYLE, bold: cell.bold }, ((w[c] ?? 0) - CELL_MARGINS) / 20))));
    expect(clean(widths)).toBe(false);
    const out = cleanBreakWidths(widths, minimums, columns, measurer, STYLE);
    expect(out.reduce((a, b) => a + b, 0)).toBe(textWidth);
    out.forEach((w, i) => expect(w).toBeGreaterThanOrEqual(minimums[i] ?? 0));
    expect(clean(out)).toBe(true);
  });

  it('shares a column’s change between two others when neither has room for all of it', () => {
    // The sample proposal's table 1 as printed, from the widths its content asks for: 主要方法 and 评价数据集 both break
    // inside words. Giving 主要方法's room to 评价数据集 alone left 检索增强提示学 / 习; 评价指标 must give part of it.
    const columns: CellText[][] = [
      cells('研究阶段', '版面结构预训练', '跨语言知识迁移', '小样本信息抽取'),
      cells('主要方法', '掩码区域重建、阅读顺序预测', '对比对齐、版式无关表示', '检索增强提示学习、约束解码'),
      [...cells('评价数据集', 'DocBank、PubLayNet'), { text: 'XFUND[5]、自建少数民族语言数据集', bold: false, superscripts: [[5, 8]] }, ...cells('x', 'FUNSD、CORD、行业票据').slice(1)],
      cells('评价指标', 'mAP', 'F1', 'F1 / 一致性'),
    ];
    const widths = [1790, 2368, 2594, 1548];
    const minimums = [1790, 1116, 2314, 1116];
    const faults = (w: readonly number[]): number =>
      columns.reduce((sum, column, c) => sum + column.reduce((n, cell) => n + breakFaults(cell.text, characterBreakLines(cell.text, measurer, { ...STYLE, bold: cell.bold }, ((w[c] ?? 0) - CELL_MARGINS) / 20, cell.superscripts)), 0), 0);
    expect(faults(widths)).toBeGreaterThan(0);
    const out = cleanBreakWidths(widths, minimums, columns, measurer, STYLE);
    expect(out.reduce((a, b) => a + b, 0)).toBe(8300);
    expect(faults(out)).toBe(0);
  });
});
