// What every operator command of the team service (`folio tenant`, `folio retention`, `folio quota`)
// starts with: an action, its flags, the database (`--database` or FOLIO_DATABASE_URL) and, where
// the command touches files, the storage root (`--storage-root` or FOLIO_STORAGE_ROOT); a wrong
// call prints the command's usage and exits 1.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { cliTranslate, type Translate } from './cli-messages';

export interface OperatorCommandIo {
  env?: Record<string, string | undefined>;
  out?: (line: string) => void;
  err?: (line: string) => void;
  /** The messages' language; by default the terminal's (`env`'s locale variables). */
  t?: Translate;
}

/** The command's translate function: the caller's, else the terminal's language as `env` names it. */
export function operatorTranslate(io: OperatorCommandIo): Promise<Translate> {
  return io.t ? Promise.resolve(io.t) : cliTranslate(io.env ?? process.env);
}

export interface OperatorCommandSpec<A extends string> {
  usage: string;
  actions: readonly A[];
  /** The command's own flags (`--database`, and `--storage-root` when `storageRoot`, are added). */
  options: NonNullable<ParseArgsConfig['options']>;
  /** Whether the command takes `--storage-root`. */
  storageRoot?: boolean;
  /** String flags every action needs. */
  required?: readonly string[];
}

export interface OperatorCall<A extends string> {
  action: A;
  database: string;
  /** Undefined when neither the flag nor FOLIO_STORAGE_ROOT gives one (the actions that need it say so). */
  storageRoot: string | undefined;
  values: Record<string, string | boolean | undefined>;
  env: Record<string, string | undefined>;
  out: (line: string) => void;
  err: (line: string) => void;
}

/** The parsed call, or null once the usage has been printed (the command then exits 1). */
export function operatorCommand<A extends string>(argv: string[], io: OperatorCommandIo, spec: OperatorCommandSpec<A>): OperatorCall<A> | null {
  const env = io.env ?? process.env;
  const out = io.out ?? ((line: string) => console.log(line));
  const err = io.err ?? ((line: string) => console.error(line));
  const [action, ...rest] = argv;
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: rest,
      options: { database: { type: 'string' }, ...(spec.storageRoot ? { 'storage-root': { type: 'string' } } : {}), ...spec.options },
      strict: true,
    }) as { values: Record<string, string | boolean | undefined> });
  } catch (error) {
    err(`${error instanceof Error ? error.message : String(error)}\n\n${spec.usage}`);
    return null;
  }
  const database = (values.database as string | undefined) ?? env.FOLIO_DATABASE_URL;
  const known = (spec.actions as readonly string[]).includes(action ?? '');
  if (!known || !database || (spec.required ?? []).some((flag) => typeof values[flag] !== 'string')) {
    err(spec.usage);
    return null;
  }
  const storageRoot = spec.storageRoot ? ((values['storage-root'] as string | undefined) ?? env.FOLIO_STORAGE_ROOT) : undefined;
  return { action: action as A, database, storageRoot, values, env, out, err };
}
