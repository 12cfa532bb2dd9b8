// What is wrong with a model profile file or a skill file, as data: each finding by its kind with the
// names it needs (a profile id, a field, the fields a check rejected), so each screen says it in its
// person's language (src/shared/config-finding-text.ts); the core builds no sentence. The checker's
// own English words (a YAML parser's message, a schema check's) travel beside it as `detail`.
import { z } from 'zod';

/** Field paths a schema check rejected, as written in the file ("price.input", "profiles.x"); empty: the whole file. */
const Fields = z.array(z.string());

export const ConfigFinding = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('profile_folder_unreadable') }),
  z.object({ kind: z.literal('profile_file_name'), stem: z.string() }),
  z.object({ kind: z.literal('invalid_yaml'), line: z.number().int().nullable() }),
  z.object({ kind: z.literal('file_invalid'), fields: Fields }),
  z.object({ kind: z.literal('unknown_file_field'), field: z.string(), per_profile: z.boolean() }),
  z.object({ kind: z.literal('profile_key_invalid'), key: z.string() }),
  z.object({ kind: z.literal('profile_not_mapping'), key: z.string() }),
  z.object({ kind: z.literal('unknown_field'), profile: z.string(), field: z.string() }),
  z.object({ kind: z.literal('profile_invalid'), profile: z.string(), fields: Fields }),
  z.object({ kind: z.literal('override_skipped'), profile: z.string() }),
  z.object({ kind: z.literal('operator_shadows'), profile: z.string() }),
  z.object({ kind: z.literal('defined_twice'), profile: z.string(), folder: z.string() }),
  z.object({ kind: z.literal('no_profiles') }),
  z.object({ kind: z.literal('skill_no_frontmatter') }),
  z.object({ kind: z.literal('skill_invalid_yaml'), line: z.number().int().nullable() }),
  z.object({ kind: z.literal('skill_invalid'), fields: Fields }),
  z.object({ kind: z.literal('skill_unreadable') }),
]);
export type ConfigFinding = z.infer<typeof ConfigFinding>;

/**
 * A problem with one file: the file, the finding, and `message`, the finding said in English with the
 * checker's detail (for logs and API clients; screens word `finding` in their own language).
 */
export const ConfigWarning = z.object({ source: z.string(), finding: ConfigFinding, detail: z.string().optional(), message: z.string() });
export type ConfigWarning = z.infer<typeof ConfigWarning>;
