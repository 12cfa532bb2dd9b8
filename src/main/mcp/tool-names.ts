// The names MCP tools get in front of the model: `mcp__<server>__<tool>`, within what providers accept
// for a function name (^[a-zA-Z0-9_-]{1,64}$). Characters outside it become "_"; a name that had to be
// changed or cut gets a short hash of the original, so two tools never end up with one name.
import { createHash } from 'node:crypto';

export const MCP_TOOL_PREFIX = 'mcp__';
const MAX = 64;
const ALLOWED = /^[a-zA-Z0-9_-]+$/u;

export function modelToolName(server: string, tool: string): string {
  const plain = `${MCP_TOOL_PREFIX}${server}__${tool}`;
  if (plain.length <= MAX && ALLOWED.test(plain)) return plain;
  const hash = createHash('sha256').update(`${server}\0${tool}`).digest('hex').slice(0, 8);
  const safe = plain.replace(/[^a-zA-Z0-9_-]/gu, '_');
  return `${safe.slice(0, MAX - hash.length - 1)}_${hash}`;
}
