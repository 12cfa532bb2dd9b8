// The responses public/early-requests.js asked for before the modules loaded: each is taken once,
// by the first GET of the same URL with the same token, and later calls go to the network.
import type { FetchLike } from '../../shared/http-client';

export interface EarlyRequests {
  authorization: string;
  responses: Record<string, Promise<Response> | undefined>;
}

declare global {
  interface Window {
    /** Set by public/early-requests.js in web mode. */
    __folioEarlyRequests?: EarlyRequests;
  }
}

function headerOf(init: RequestInit | undefined, name: string): string | null {
  const headers = init?.headers;
  if (!headers) return null;
  if (headers instanceof Headers) return headers.get(name);
  if (Array.isArray(headers)) return headers.find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1] ?? null;
  return Object.entries(headers).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1] ?? null;
}

export function takeEarlyResponse(early: EarlyRequests | undefined, url: string, init?: RequestInit): Promise<Response> | null {
  if (!early) return null;
  const method = init?.method ?? 'GET';
  if (method !== 'GET' || headerOf(init, 'Authorization') !== early.authorization) return null;
  const response = early.responses[url];
  if (!response) return null;
  delete early.responses[url];
  return response;
}

/** `fetch`, except that a request the page already sent early is answered by that response. */
export function fetchAdoptingEarly(win: Pick<Window, '__folioEarlyRequests'> | undefined, network: FetchLike): FetchLike {
  // Marks the app as started, so an early script that arrives after this sends nothing.
  if (win && !('__folioEarlyRequests' in win)) win.__folioEarlyRequests = { authorization: '', responses: {} };
  return (input, init) => takeEarlyResponse(win?.__folioEarlyRequests, input, init) ?? network(input, init);
}
