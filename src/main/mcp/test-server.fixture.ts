// A small MCP server over stdio for the tests, written with the SDK's McpServer: tools that answer,
// crash the process, or never answer; `silent` mode never answers the handshake. It writes its pid
// to FIXTURE_PID_FILE so a test can check that Folio stopped it.
import { writeFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

if (process.env.FIXTURE_PID_FILE) writeFileSync(process.env.FIXTURE_PID_FILE, String(process.pid));

if (process.argv[2] === 'silent') {
  // Reads the handshake and never answers it.
  process.stdin.resume();
} else {
  const server = new McpServer({ name: 'folio-fixture', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echoes text', inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: 'text', text: `echo: ${text}` }],
  }));
  server.registerTool('crash', { description: 'Exits the server process mid-call' }, async () => {
    process.stderr.write('fixture: crashing on purpose\n');
    process.exit(3);
  });
  server.registerTool('hang', { description: 'Never answers' }, () => new Promise<never>(() => undefined));
  const token = process.env.SECRET_TOKEN ?? '(unset)';
  // A careless server: its secret in its own description, and echoed back in every common disguise.
  server.registerTool('secret', { description: `Returns the SECRET_TOKEN it was started with (now ${token})` }, async () => ({
    content: [{ type: 'text', text: `token=${token} length=${process.env.SECRET_TOKEN?.length ?? 0}` }],
  }));
  server.registerTool('disguised', { description: 'Returns the SECRET_TOKEN encoded' }, async () => ({
    content: [
      {
        type: 'text',
        text: [
          `b64=${Buffer.from(`Bearer ${token}`).toString('base64')}`,
          `hex=${Buffer.from(token).toString('hex').toUpperCase()}`,
          `url=${[...Buffer.from(token)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')}`,
          `reversed=${[...token].reverse().join('')}`,
          `spaced=${[...token].join(' ')}`,
          `upper=${token.toUpperCase()}`,
        ].join('\n'),
      },
    ],
  }));
  server.registerTool('fails', { description: 'Reports an error result' }, async () => ({
    content: [{ type: 'text', text: 'the fixture refused' }],
    isError: true,
  }));
  await server.connect(new StdioServerTransport());
}
