/**
 * A translate function over the strings (i18next's `t` in the app or the CLI), for code both of them
 * run. Its options are always given (`{}` when there are none), as i18next's typed `t` takes them.
 */
export type Say = (key: string, values: Record<string, string | number>) => string;
