import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SOFT_HYPHEN, withBreakOpportunities, withUrlBreaks, ZERO_WIDTH_SPACE } from './break-opportunities';
import { WORD_JOINER } from './name-hyphens';

const shown = (text: string): string => text.replaceAll(ZERO_WIDTH_SPACE, '|').replaceAll(SOFT_HYPHEN, '~').replaceAll(WORD_JOINER, '^');
const visible = (text: string): string => text.replaceAll(ZERO_WIDTH_SPACE, '').replaceAll(SOFT_HYPHEN, '').replaceAll(WORD_JOINER, '');

describe('break opportunities in Latin runs of Chinese text', () => {
  it('lets a URL break after a slash and before a dot or hyphen (never after the hyphen), never inside a word of it, and leaves a sentence mark outside', () => {
    const text = '访问地址为 https://github.com/example-org/doc-ai/blob/main/README.md，欢迎复现。';
    const out = withBreakOpportunities(text);
    expect(visible(out)).toBe(text);
    expect(shown(out)).toBe('访问地址为 https://|github|.com/|example|-^org/|doc|-^ai/|blob/|main/|README|.md，欢迎复现。');
    expect(shown(withBreakOpportunities('见 www.nsfc.gov.cn/publish/portal/.'))).toBe('见 www|.nsfc|.gov|.cn/|publish/|portal/.');
  });

  it('hyphenates long plain words next to Chinese, and leaves short words and Chinese alone', () => {
    const out = withBreakOpportunities('基于internationalization框架与 和 understanding 的方法');
    expect(shown(out)).toBe('基于in~ter~na~tion~al~iza~tion框架与 和 un~der~stand~ing 的方法');
    expect(withBreakOpportunities('短文本 with short words 与 GPT-4。')).toBe('短文本 with short words 与 GPT-4。');
    // Words of seven letters or more: what a typesetter would hyphenate rather than letter-space the line above.
    expect(shown(withBreakOpportunities('检索增强生成（Retrieval Generation）'))).toBe('检索增强生成（Re~trieval Gen~er~a~tion）');
  });

  it('breaks a hyphenated compound at its own hyphen only, never inside one of its parts', () => {
    expect(shown(withBreakOpportunities('检索增强生成（Retrieval-Augmented Generation）与Knowledge-Intensive任务'))).toBe('检索增强生成（Retrieval-Augmented Gen~er~a~tion）与Knowledge-Intensive任务');
    expect(shown(withBreakOpportunities('以 LayoutLMv3-based 方法'))).toBe('以 LayoutLMv3-based 方法');
  });

  it('gives ragged-right text (the reference list) its URL breaks and hyphenates no word', () => {
    const entry = 'HUGGING FACE. Transformers Documentation[EB/OL]. (2023)[2024-02-15]. https://huggingface.co/docs/transformers.';
    expect(shown(withUrlBreaks(entry))).toBe('HUGGING FACE. Transformers Documentation[EB/OL]. (2023)[2024-02-15]. https://|huggingface|.co/|docs/|transformers.');
  });

  it('lets a camel-case name break with a hyphen where its parts join, and never an acronym or a part under three characters', () => {
    expect(shown(withBreakOpportunities('以 LayoutLMv3、TransformerBased、PubLayNet 与 FinBERT 为代表'))).toBe('以 Layout~LMv3、|Transformer~Based、|Pub~Lay~Net 与 Fin~BERT 为代表');
    expect(shown(withBreakOpportunities('在XFUND、LayoutLM与iPhone上'))).toBe('在XFUND、|LayoutLM与iPhone上');
  });

  it('lets a line break after a Chinese comma or stop that a Latin word follows, as clreq allows', () => {
    expect(shown(withBreakOpportunities('在FUNSD、CORD与XFUND上，GPT-4。LayoutLMv3、Donut，数据'))).toBe('在FUNSD、|CORD与XFUND上，|GPT-4。|Layout~LMv3、|Donut，数据');
  });

  it('imports its patterns in a way Node itself resolves (the built app loads packages unbundled, as ES modules)', () => {
    const source = readFileSync(new URL('./break-opportunities.ts', import.meta.url), 'utf8');
    const specifier = /from '(hyphen[^']*)'/u.exec(source)?.[1] ?? '';
    expect(specifier).not.toBe('');
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', `import enUs from '${specifier}'; process.stdout.write(enUs.hyphenateSync('understanding', { hyphenChar: '~' }))`], { encoding: 'utf8', cwd: import.meta.dirname });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('un~der~stand~ing');
  });
});
