// `folio` in a Chinese terminal (LC_ALL=zh_CN.UTF-8): what it prints holds no English sentence (a run
// of four or more Latin words); file names, ids and units may stay as they are.
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFakeOpenAI } from '../../../testing/fake-openai/server';
import { buildTemplate } from '../renderers/deck/templates/fixture.test-support';
import { latinSentences } from '../../shared/latin-text.test-support';
import { damagedDataFolder, folio, folioAsync, root, serveUntil } from './folio-process.test-support';

const LONG_POINT = '这是一段非常长的文字，用来让这张幻灯片的字数超过听众能读完的数量，'.repeat(3);

/** A deck and a document folder whose reports have findings of several kinds. */
function faultyInputs(): { dir: string; deck: string; document: string } {
  const dir = mkdtempSync(join(tmpdir(), 'folio-cli-zh-'));
  const deck = join(dir, 'deck.json');
  writeFileSync(
    deck,
    JSON.stringify({
      title: '测试',
      slides: [
        { layout: 'bullets', title: '很多字', bullets: Array.from({ length: 6 }, () => LONG_POINT) },
        { layout: 'image', title: '图', image: 'pics/none.png' },
      ],
    }),
  );
  const document = join(dir, 'doc');
  cpSync(join(root, 'samples/proposal-nsfc'), document, { recursive: true });
  appendFileSync(
    join(document, 'sections/01_rationale.md'),
    '\n\n正如文献所述 [@nobody2020]，见图 [@fig:none]。脚注[^nope]。\n\n![缺失的图](figures/none.png)\n\n<div>html here</div>\n\n- 第一项\n-\n- 第三项\n\n| a | b |\n|---|---|\n| 1 | 2 |\n',
  );
  return { dir, deck, document };
}

/** A data folder whose model profile and skill files are broken in each way the checks name. */
function brokenConfigFolder(): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-cli-config-'));
  const models = join(dataDir, 'models');
  mkdirSync(models);
  writeFileSync(join(models, 'broken.yaml'), 'profiles:\n  main: [unclosed\n');
  writeFileSync(join(models, 'bad name.yaml'), 'profiles: {}\n');
  writeFileSync(join(models, 'deepseek.yaml'), 'profiles:\n  flash:\n    thinking_mode: sometimes\n');
  writeFileSync(
    join(models, 'lab.yaml'),
    ['temperature: 0.2', 'price: { input: 1, output: 2 }', 'profiles:', '  typo:', '    name: Typo', '    model: m', '    max_context: 1000', '    max_output: 10', '    paralel_tools: true', '  scalar: 3', '  bad:', '    name: Bad', '    model: m', '    max_context: many', '    max_output: 10', ''].join('\n'),
  );
  for (const [name, text] of [
    ['no-frontmatter', 'Just text, no frontmatter.\n'],
    ['no-description', '---\nname: no-description\n---\nBody\n'],
    ['bad-yaml', '---\nname: [unclosed\n---\nBody\n'],
  ]) {
    mkdirSync(join(dataDir, 'skills', name), { recursive: true });
    writeFileSync(join(dataDir, 'skills', name, 'SKILL.md'), text);
  }
  return dataDir;
}

describe('folio in a Chinese terminal', () => {
  it('names what is wrong with model profile files in Chinese before a probe', () => {
    const dataDir = brokenConfigFolder();
    const result = folio(['probe', 'lab.none'], { LC_ALL: 'zh_CN.UTF-8', FOLIO_DATA_DIR: dataDir });
    expect(result.status).toBe(3);
    const said = result.stderr.replaceAll(dataDir, '');
    expect(said).toContain('警告：/models/broken.yaml：第 3 行 YAML 格式有误，已跳过此文件');
    expect(said).toContain('警告：/models/bad name.yaml：文件名“bad name”只能由 1–64 个字母、数字、_或-组成');
    expect(said).toContain('deepseek.flash：thinking_mode 的值无效，已跳过此配置');
    expect(said).toContain('deepseek.flash：你的覆盖设置无效，已改用内置配置');
    expect(said).toContain('文件级字段“price”无法识别，已忽略（请在每个配置里分别设置）');
    expect(said).toContain('lab.typo：字段“paralel_tools”无法识别，已忽略');
    expect(said).toContain('profiles.scalar：应为字段的映射，已跳过此配置');
    expect(said).toContain('lab.bad：api_base、max_context 的值无效，已跳过此配置');
    expect(latinSentences(said)).toEqual([]);
  }, 60_000);

  it('names what is wrong with skill files in Chinese when serving', async () => {
    const dataDir = brokenConfigFolder();
    const { stderr } = await serveUntil({ LC_ALL: 'zh_CN.UTF-8', FOLIO_DATA_DIR: dataDir }, (err) => (err.match(/SKILL\.md/gu) ?? []).length >= 3);
    const said = stderr.replaceAll(dataDir, '');
    expect(said).toContain('警告：/skills/no-frontmatter/SKILL.md：已跳过此技能：SKILL.md 必须以“---”两行之间的 YAML 头信息开头');
    expect(said).toContain('警告：/skills/no-description/SKILL.md：已跳过此技能：description 的值无效');
    expect(said).toMatch(/警告：\/skills\/bad-yaml\/SKILL\.md：已跳过此技能：第 2 行 YAML 格式有误/u);
    expect(said).toContain('lab.bad：api_base、max_context 的值无效，已跳过此配置');
    expect(latinSentences(said)).toEqual([]);
  }, 60_000);

  it('render says the reports’ findings and the page count in Chinese, as the app’s preview does', () => {
    const { dir, deck, document } = faultyInputs();
    const zh = { LC_ALL: 'zh_CN.UTF-8', FOLIO_SOFFICE: join(dir, 'no-such-soffice') };
    const slides = folio(['render', deck, '-o', join(dir, 'out')], zh);
    expect(slides.status, slides.stderr).toBe(0);
    expect(slides.stdout).toContain('质量报告（按版式估算）：3 个问题');
    expect(slides.stdout).toContain('第 1 张（文件第 1、2 张）：文字过多：');
    expect(slides.stdout).toContain('第 2 张（文件第 3 张）：缺少图片：');
    const doc = folio(['render', document, '-o', join(dir, 'out')], zh);
    expect(doc.status, doc.stderr).toBe(0);
    expect(doc.stdout).toMatch(/：约 \d+ 页（估算）。目录页码将在 Word 更新域后显示/u);
    expect(doc.stdout).toContain('引用无条目：文档文件夹的参考文献库中没有 [@nobody2020]');
    expect(doc.stdout).toContain('空列表项：列表第 2 项没有文字');
    // The paths written are the test's own (a temporary folder), not words.
    for (const out of [slides.stdout, doc.stdout]) expect(latinSentences(out.replaceAll(dir, ''))).toEqual([]);
    // An English terminal keeps the engines' own words, the most precise there are.
    const english = folio(['render', deck, '-o', join(dir, 'out')], { FOLIO_SOFFICE: zh.FOLIO_SOFFICE });
    expect(english.stdout).toContain('Quality report, estimated (LibreOffice not installed): 3 issue(s)');
    expect(english.stdout).toMatch(/spec slide 2 \(file slide 3\): missing_image: "pics\/none\.png" was not found/u);
  }, 120_000);

  it('render --template says what the template could not give in Chinese', async () => {
    const { dir, deck } = faultyInputs();
    const template = join(dir, 'ACME.potx');
    writeFileSync(template, await buildTemplate({ potx: true }));
    const result = folio(['render', deck, '-o', join(dir, 'out'), '--template', template], { LC_ALL: 'zh_CN.UTF-8', FOLIO_SOFFICE: join(dir, 'no-such-soffice') });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('模板：没有找到节标题版式：节标题页使用“ACME Title”版式。');
    expect(result.stdout).toContain('模板：没有找到两栏内容版式：两栏幻灯片把“ACME Content”的正文区一分为二。');
    expect(result.stdout).toMatch(/模板：强调色 1（#C8102E）在背景上难以看清：Folio 的强调文字和标记改用 #[0-9A-F]{6}。/u);
    expect(result.stdout).toMatch(/模板：正文颜色 #101820 在其后的 #0B3D2E 上难以看清：正文改用 #FFFFFF。/u);
    expect(latinSentences(result.stdout.replaceAll(dir, ''))).toEqual([]);
  }, 120_000);

  it('a damaged database is said in Chinese, with the way to restore it', async () => {
    const dataDir = await damagedDataFolder();
    const zh = { LC_ALL: 'zh_CN.UTF-8', FOLIO_DATA_DIR: dataDir };
    for (const args of [['tasks'], ['serve', '--port', '0']]) {
      const result = folio(args, zh);
      expect(result.status, args.join(' ')).toBe(4);
      expect(result.stderr).toContain(`Folio 的数据库 ${join(dataDir, 'folio.db')} 是空的（0 字节），但 Folio 曾在其中保存过数据。有一份 `);
      expect(result.stderr).toContain('的备份可以恢复；损坏的文件会保留在旁边。');
      expect(latinSentences(result.stderr.replaceAll(dataDir, ''))).toEqual([]);
    }
    const restore = folio(['db', 'restore'], zh);
    expect(restore.status, restore.stderr).toBe(0);
    expect(latinSentences(restore.stdout.replaceAll(dataDir, ''))).toEqual([]);
  }, 60_000);

  it('the team service’s operator commands say their usage and refusals in Chinese', () => {
    const zh = { LC_ALL: 'zh_CN.UTF-8', FOLIO_DATABASE_URL: '' };
    // The command lines and option names in a usage are the syntax to type; the prose around them is what must be Chinese.
    const prose = (text: string) =>
      text
        .split('\n')
        .filter((line) => !/folio /u.test(line))
        .join('\n')
        .replace(/-{0,2}[a-z]+(?:-[a-z]+)+/gu, '');
    const usages: [string[], string][] = [
      [['tenant'], '两者都保留 usage_events'],
      [['retention'], '表示永久保留（默认）'],
      [['quota'], '表示恢复服务器的默认值'],
    ];
    for (const [args, said] of usages) {
      const usage = folio(args, zh);
      expect(usage.status, args.join(' ')).toBe(1);
      expect(usage.stderr).toContain(said);
      expect(latinSentences(prose(usage.stderr)), args.join(' ')).toEqual([]);
    }
    const refusals: [string[], string][] = [
      [['tenant', 'erase', '--database', 'postgres://x', '--tenant', 'acme'], '`folio tenant erase` 需要 --storage-root（文件也会一并删除）'],
      [['tenant', 'erase', '--database', 'postgres://x', '--storage-root', '/nowhere', '--tenant', 'acme'], '会永久删除数据；请加上 --yes'],
      [['retention', 'run', '--database', 'postgres://x'], '`folio retention run` 需要 --storage-root'],
      [['retention', 'set-plan', '--database', 'postgres://x', '--plan', 'p', '--archive-after-days', 'soon'], '--archive-after-days：须为不小于 1 的整天数'],
      [['quota', 'set', '--database', 'postgres://x', '--tenant', 'acme'], '`folio quota set` 至少需要一项配额'],
    ];
    for (const [args, said] of refusals) {
      const result = folio(args, zh);
      expect(result.status, args.join(' ')).toBe(3);
      expect(result.stderr).toContain(said);
      expect(latinSentences(result.stderr), args.join(' ')).toEqual([]);
    }
  }, 120_000);

  it('probe says its table, each check, fact and verdict in Chinese', async () => {
    const fake = await startFakeOpenAI();
    try {
      const dataDir = mkdtempSync(join(tmpdir(), 'folio-cli-probe-'));
      mkdirSync(join(dataDir, 'models'));
      writeFileSync(
        join(dataDir, 'models', 'local.yaml'),
        `profiles:\n  main:\n    provider: fake\n    name: Fake model\n    model: fake-model\n    api_base: ${fake.url}\n    max_context: 32768\n    max_output: 4096\n    parallel_tools: true\n    thinking_mode: toggle\n`,
      );
      const twoCalls = { toolCalls: [{ name: 'get_time', arguments: '{"city":"Paris"}' }, { name: 'get_weather', arguments: '{"city":"Paris"}' }] };
      fake.script([{ text: 'pong' }, twoCalls, { reasoning: 'adding', text: '42' }, { text: '42' }, { reasoning: 'adding', text: '42' }]);
      const result = await folioAsync(['probe', 'local.main'], { LC_ALL: 'zh_CN.UTF-8', FOLIO_DATA_DIR: dataDir });
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout).toContain('探测 local.main');
      expect(result.stdout).toMatch(/并行调用工具\s+是\s+是（一次回复中 2 个调用）\s+一致/u);
      expect(result.stdout).toMatch(/推理：深度思考（max）\s+不支持，按“思考”运行\s+未发送\s+一致/u);
      expect(latinSentences(result.stdout)).toEqual([]);
    } finally {
      await fake.close();
    }
  }, 60_000);

  it('types the gap a terminal cannot draw between Chinese and Latin, and leaves names and paths as they are', () => {
    const zh = { LC_ALL: 'zh_CN.UTF-8' };
    const status = folio(['tasks', '--status', '第3章'], zh);
    expect(status.stderr).toContain('未知状态第3章：可用 active、completed 或 abandoned。');
    const dir = mkdtempSync(join(tmpdir(), 'folio-cli-zh-'));
    const missing = folio(['render', join(dir, 'work/数据.csv')], zh);
    expect(missing.stderr).toContain(`${join(dir, 'work/数据.csv')} 不存在（既不是文件也不是文件夹）。`);
    expect(missing.stderr).toContain('folio --help 列出全部命令和选项。');
    const usage = folio([], zh);
    expect(`${usage.stdout}${usage.stderr}`).toContain('在 127.0.0.1 上启动网页模式（令牌取自 FOLIO_TOKEN，否则自动生成）');
  }, 60_000);
});
