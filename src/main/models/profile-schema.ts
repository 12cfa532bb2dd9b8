// The shape of one model profile as written in config/models/*.yaml (after file-level defaults are
// applied). Every field is documented in config/models/README.md; keep the two in step.
import { z } from 'zod';

/** Profile keys and file stems become ids like `deepseek.flash`; keep them URL- and shell-safe. */
export const ProfileKey = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'expected 1-64 of A-Z a-z 0-9 _ -');

export const EnvName = z.string().regex(/^[A-Z][A-Z0-9_]{0,99}$/, 'expected an environment variable name like DEEPSEEK_API_KEY');

const ApiBase = z
  .url({ protocol: /^https?$/, error: 'expected an http(s) URL' })
  // The SDK appends `/chat/completions`; a trailing slash would double it.
  .transform((s) => s.replace(/\/+$/, ''));

export const ProfileFields = z
  .object({
    provider: z.string().min(1).max(64),
    model: z.string().min(1).max(200),
    name: z.string().min(1).max(200),
    api_base: ApiBase,
    /** null or absent: the provider needs no key (Ollama and other local servers). */
    api_key_env: EnvName.nullable().default(null),
    role: z.enum(['chat', 'worker']).default('chat'),
    max_context: z.number().int().positive(),
    /** How much context the model actually uses well; defaults to 60% of max_context. */
    reliable_context: z.number().int().positive().optional(),
    max_output: z.number().int().positive(),
    parallel_tools: z.boolean().default(false),
    thinking_mode: z.enum(['none', 'always', 'toggle']).default('none'),
    /** How a `toggle` profile switches thinking: `thinking: {type}` (DeepSeek, GLM) or `enable_thinking` (Qwen). */
    thinking_param: z.enum(['thinking', 'enable_thinking']).default('thinking'),
    reasoning_effort_levels: z.array(z.string().min(1).max(32)).default([]),
    /** The level sent when a request does not choose one; must be one of reasoning_effort_levels. */
    reasoning_effort: z.string().min(1).max(32).optional(),
    max_iterations: z.number().int().positive().max(1000).default(30),
    temperature: z.number().min(0).max(2).default(1),
    /** OpenAI's reasoning models refuse `max_tokens` and want `max_completion_tokens`. */
    max_tokens_param: z.enum(['max_tokens', 'max_completion_tokens']).default('max_tokens'),
    price: z
      .object({
        input: z.number().nonnegative(),
        output: z.number().nonnegative(),
        currency: z.string().regex(/^[A-Z]{3}$/, 'expected a currency code like USD or CNY').default('USD'),
      })
      .default({ input: 0, output: 0, currency: 'USD' }),
    extra_body: z.record(z.string(), z.unknown()).default({}),
    /** The model accepts images in user messages (OpenAI `image_url` parts); the `ocr` tool needs one. */
    vision: z.boolean().default(false),
    /** Task modes this profile is the default for (when the task names no model and it has a key). */
    default_for: z.array(z.enum(['ppt', 'proposal', 'coding', 'general'])).default([]),
    /**
     * The reasoning_effort level a task's 'none' or 'max' setting sends, for providers whose effort
     * scale has an "off" level (OpenAI's `none`) or a deepest mode (DeepSeek's `max`). 'thinking'
     * sends `reasoning_effort`; a toggle profile's 'none' uses its thinking switch instead.
     */
    reasoning_effort_for: z.strictObject({ none: z.string().min(1).max(32).optional(), max: z.string().min(1).max(32).optional() }).default({}),
  })
  .superRefine((p, ctx) => {
    if (p.reliable_context !== undefined && p.reliable_context > p.max_context) {
      ctx.addIssue({ code: 'custom', path: ['reliable_context'], message: `must not exceed max_context (${p.max_context})` });
    }
    if (p.reasoning_effort !== undefined && !p.reasoning_effort_levels.includes(p.reasoning_effort)) {
      ctx.addIssue({ code: 'custom', path: ['reasoning_effort'], message: 'must be one of reasoning_effort_levels' });
    }
    for (const [mode, level] of Object.entries(p.reasoning_effort_for)) {
      if (level !== undefined && !p.reasoning_effort_levels.includes(level)) {
        ctx.addIssue({ code: 'custom', path: ['reasoning_effort_for', mode], message: 'must be one of reasoning_effort_levels' });
      }
    }
  })
  .transform((p) => ({
    ...p,
    reliable_context: p.reliable_context ?? Math.floor(p.max_context * 0.6),
    reasoning_effort: p.reasoning_effort ?? defaultEffort(p.reasoning_effort_levels),
  }));

function defaultEffort(levels: string[]): string | null {
  if (levels.length === 0) return null;
  return levels.includes('medium') ? 'medium' : (levels[0] ?? null);
}

/** The keys a profile may have; anything else is reported as a warning (a likely typo), not an error. */
export const knownProfileKeys: ReadonlySet<string> = new Set([
  'default_for',
  'provider',
  'model',
  'name',
  'api_base',
  'api_key_env',
  'role',
  'max_context',
  'reliable_context',
  'max_output',
  'parallel_tools',
  'thinking_mode',
  'thinking_param',
  'reasoning_effort_levels',
  'reasoning_effort',
  'max_iterations',
  'temperature',
  'max_tokens_param',
  'price',
  'extra_body',
  'vision',
  'reasoning_effort_for',
]);

/** Fields a file may set once for all its profiles. */
export const ModelFile = z.object({
  provider: z.string().min(1).max(64).optional(),
  api_base: z.string().optional(),
  api_key_env: z.string().nullable().optional(),
  currency: z.string().optional(),
  profiles: z.record(z.string(), z.unknown()),
});

export type ProfileFields = z.output<typeof ProfileFields>;

export interface ModelProfile extends ProfileFields {
  /** `<file stem>.<profile key>`, e.g. `deepseek.flash`. */
  id: string;
  /** operator: offered to every tenant by the team service's operator (operator-models.ts). */
  source: 'builtin' | 'user' | 'operator';
  /** The yaml file the profile (or its last override) came from. */
  file: string;
}
