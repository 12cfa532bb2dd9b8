// A minimal SSE consumer over fetch, the same for Folio's stream and the provider's, so the
// client-side cost is identical on both sides of the comparison.

export interface SseEvent {
  event: string | null;
  data: string;
}

/** Reads an SSE response to its end, calling onEvent for each event (comments are skipped). */
export async function readSse(response: Response, onEvent: (event: SseEvent) => void): Promise<void> {
  if (!response.ok || !response.body) throw new Error(`SSE request failed: HTTP ${response.status} ${await response.text()}`);
  const decoder = new TextDecoder();
  let buffer = '';
  const flush = (block: string) => {
    let event: string | null = null;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (data.length > 0) onEvent({ event, data: data.join('\n') });
  };
  // fetch bodies are byte streams; the Node typings leave the chunk type open.
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      flush(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
    }
  }
  if (buffer.trim() !== '') flush(buffer);
}
