// The MCP SDK, loaded when the first server starts: its client, transports and schemas take
// hundreds of milliseconds to import, and most sessions never start an MCP server, so start-up must
// not pay for them.
import type * as ClientModule from '@modelcontextprotocol/sdk/client/index.js';
import type * as StdioModule from '@modelcontextprotocol/sdk/client/stdio.js';
import type * as HttpModule from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type * as TypesModule from '@modelcontextprotocol/sdk/types.js';

export interface McpSdk {
  Client: typeof ClientModule.Client;
  StdioClientTransport: typeof StdioModule.StdioClientTransport;
  StreamableHTTPClientTransport: typeof HttpModule.StreamableHTTPClientTransport;
  McpError: typeof TypesModule.McpError;
  ErrorCode: typeof TypesModule.ErrorCode;
}

let sdk: McpSdk | null = null;

export async function loadMcpSdk(): Promise<McpSdk> {
  if (sdk) return sdk;
  const [client, stdio, http, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  sdk = { Client: client.Client, StdioClientTransport: stdio.StdioClientTransport, StreamableHTTPClientTransport: http.StreamableHTTPClientTransport, McpError: types.McpError, ErrorCode: types.ErrorCode };
  return sdk;
}

/** The SDK's McpError with one of its JSON-RPC codes (by name); false before the SDK was loaded, when no such error can exist. */
export function isMcpError(err: unknown, code?: 'ConnectionClosed' | 'RequestTimeout'): boolean {
  if (!sdk || !(err instanceof sdk.McpError)) return false;
  return code === undefined || err.code === Number(sdk.ErrorCode[code]);
}
