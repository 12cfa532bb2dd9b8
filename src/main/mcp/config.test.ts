import { describe, expect, it } from 'vitest';
import { checkServers, McpConfigError, parseRawConfig } from './config';

describe('mcp.json', () => {
  it('reads Claude Desktop shaped entries, and reports a bad entry by name while the others load', () => {
    const raw = parseRawConfig(
      JSON.stringify({
        mcpServers: {
          files: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'], env: { TOKEN: 'x' } },
          remote: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer y' }, timeout_ms: 5000, disabled: true },
          broken: { args: ['no command'] },
          'bad name!': { command: 'x' },
          old: { type: 'sse', url: 'https://old.example.com/sse' },
          ftp: { url: 'ftp://example.com' },
        },
      }),
    );
    const { servers, problems } = checkServers(raw);
    expect(servers.map((s) => [s.name, s.transport, s.disabled ?? false])).toEqual([
      ['files', 'stdio', false],
      ['remote', 'http', true],
    ]);
    expect(servers[1]).toMatchObject({ timeout_ms: 5000, headers: { Authorization: 'Bearer y' } });
    expect(problems.map((p) => p.server)).toEqual(['broken', 'bad name!', 'old', 'ftp']);
    expect(problems.find((p) => p.server === 'old')!.message).toMatch(/SSE/);
    expect(problems.find((p) => p.server === 'ftp')!.message).toMatch(/http/);
  });

  it('refuses text that is not JSON or has no server map', () => {
    expect(() => parseRawConfig('{not json')).toThrow(McpConfigError);
    expect(() => parseRawConfig('{"mcpServers": []}')).toThrow(/object of servers/);
    expect(parseRawConfig('')).toEqual({ mcpServers: {} });
  });
});
