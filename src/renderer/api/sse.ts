// The SSE parser lives in src/shared (the terminal chat uses it too); re-exported for the renderer.
export { SseParser, type SseMessage } from '../../shared/sse';
