// An MCP tool result as text for the model. Text passes through; images, audio and binary resources
// are described, not inlined (a base64 blob is noise to a text model); the whole is capped like the
// other tools' output, with a note saying so.
export const MCP_OUTPUT_CAP = 15_000;

type Block = { type: string } & Record<string, unknown>;
export interface McpCallOutcome {
  content?: unknown;
  structuredContent?: unknown;
  isError?: unknown;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const base64Bytes = (data: string | null): number => (data ? Math.floor((data.length * 3) / 4) : 0);

export function blockText(block: Block): string {
  switch (block.type) {
    case 'text':
      return str(block.text) ?? '';
    case 'image':
    case 'audio':
      return `[${block.type} ${str(block.mimeType) ?? ''}, ${base64Bytes(str(block.data))} bytes: not shown to the model]`;
    case 'resource': {
      const resource = (block.resource ?? {}) as Record<string, unknown>;
      const uri = str(resource.uri) ?? '';
      const text = str(resource.text);
      if (text !== null) return `[resource ${uri}]\n${text}`;
      return `[resource ${uri} (${str(resource.mimeType) ?? 'binary'}), ${base64Bytes(str(resource.blob))} bytes of binary data]`;
    }
    case 'resource_link':
      return `[resource link: ${str(block.name) ?? ''} ${str(block.uri) ?? ''}]`;
    default:
      return `[${block.type} content]`;
  }
}

export function capOutput(text: string, cap = MCP_OUTPUT_CAP): string {
  if (text.length <= cap) return text;
  return `${text.slice(0, cap)}\n[cut: the MCP tool returned ${text.length} characters; ${text.length - cap} were left out. Ask the tool for less if it can.]`;
}

/** The text the model sees for a call's result, and whether the server flagged it as an error. */
export function resultText(result: McpCallOutcome): { text: string; isError: boolean } {
  const blocks = Array.isArray(result.content) ? (result.content as Block[]) : [];
  let text = blocks.map(blockText).join('\n');
  if (text.trim() === '' && result.structuredContent !== undefined) text = JSON.stringify(result.structuredContent, null, 2);
  const isError = result.isError === true;
  if (text.trim() === '') text = isError ? 'The MCP tool reported an error without a message.' : '(no output)';
  return { text: capOutput(text), isError };
}
