// Checks on paths a person types, before the server's own (which resolves and confines them).

/** POSIX `/home/x`, Windows `C:\x` or `C:/x`, or a UNC share `\\server\share`. */
export function isAbsolutePath(path: string): boolean {
  const p = path.trim();
  return p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\');
}
