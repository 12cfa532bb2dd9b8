// Tool names, schemas and results as the provider and the model see them.
import { describe, expect, it } from 'vitest';
import { MCP_OUTPUT_CAP, resultText } from './content';
import { providerSchema } from './schema';
import { modelToolName } from './tool-names';

const PROVIDER_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

describe('MCP tool names', () => {
  it('are mcp__<server>__<tool>, sanitized and shortened with a hash only when needed', () => {
    expect(modelToolName('github', 'create_issue')).toBe('mcp__github__create_issue');
    const dotted = modelToolName('my.server', 'tool.v2');
    expect(dotted).toMatch(PROVIDER_NAME);
    expect(dotted).not.toBe(modelToolName('my_server', 'tool_v2'));
    const long = modelToolName('server', 'x'.repeat(100));
    expect(long).toMatch(PROVIDER_NAME);
    expect(long).not.toBe(modelToolName('server', `${'x'.repeat(99)}y`));
  });
});

describe('MCP input schemas for OpenAI-compatible providers', () => {
  it('keeps an object root and drops keywords providers reject, recursively', () => {
    const schema = providerSchema({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { q: { type: 'string', examples: ['a'] }, opts: { type: 'object', properties: { n: { type: 'integer', deprecated: true } }, if: {} } },
      required: ['q'],
    });
    expect(schema).toEqual({
      type: 'object',
      properties: { q: { type: 'string' }, opts: { type: 'object', properties: { n: { type: 'integer' } } } },
      required: ['q'],
    });
    expect(providerSchema({})).toEqual({ type: 'object', properties: {} });
    expect(providerSchema({ type: 'string' })).toEqual({ type: 'object', properties: {} });
  });
});

describe('MCP results as text', () => {
  it('passes text, describes images and binary resources, and caps the whole', () => {
    const out = resultText({
      content: [
        { type: 'text', text: 'hello' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        { type: 'resource', resource: { uri: 'file:///a.txt', text: 'inside' } },
        { type: 'resource', resource: { uri: 'file:///b.bin', blob: 'AAAAAAAA', mimeType: 'application/octet-stream' } },
      ],
    });
    expect(out.isError).toBe(false);
    expect(out.text).toBe('hello\n[image image/png, 3 bytes: not shown to the model]\n[resource file:///a.txt]\ninside\n[resource file:///b.bin (application/octet-stream), 6 bytes of binary data]');
    expect(resultText({ content: [], structuredContent: { n: 1 } }).text).toContain('"n": 1');
    expect(resultText({ content: [{ type: 'text', text: 'bad' }], isError: true })).toEqual({ text: 'bad', isError: true });
    const big = resultText({ content: [{ type: 'text', text: 'x'.repeat(MCP_OUTPUT_CAP + 500) }] }).text;
    expect(big.length).toBeLessThan(MCP_OUTPUT_CAP + 200);
    expect(big).toMatch(/500 were left out/);
  });
});
