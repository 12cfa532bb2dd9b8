// The one way Folio builds an `openai` SDK client for a profile: the SDK's own retries are off
// (Folio retries with its own rules), and nothing leaks in from OPENAI_* environment variables.
import { outboundFetch } from '../net/outbound';
import type { OutboundAudit } from '../net/outbound-audit';
import type OpenAI from 'openai';
import type * as OpenAISdkLib from 'openai';
import type { ModelProfile } from '../models/profile-schema';

type OpenAISdk = typeof OpenAISdkLib;
let sdk: OpenAISdk | undefined;

/**
 * The SDK (about 150 module files) loads at the first model call, not at start-up: `folio serve`
 * answers its first request without it.
 */
export async function loadOpenAISdk(): Promise<OpenAISdk> {
  sdk ??= await import('openai');
  return sdk;
}

/** The SDK if a call has loaded it: an error can only be one of its classes once it has. */
export function loadedOpenAISdk(): OpenAISdk | undefined {
  return sdk;
}

/** Placeholder for key-less providers: the SDK refuses to start without some key. */
const NO_KEY = 'no-key-needed';

/** `outbound`: who the requests are charged to (the team service's audit); `fetch` replaces the network (tests). */
export async function createOpenAIClient(profile: Pick<ModelProfile, 'api_base'>, apiKey: string, opts: { timeoutMs: number; fetch?: typeof fetch; outbound: OutboundAudit | null }): Promise<OpenAI> {
  const { default: OpenAI } = await loadOpenAISdk();
  return new OpenAI({
    baseURL: profile.api_base,
    apiKey: apiKey === '' ? NO_KEY : apiKey,
    // Explicit nulls keep OPENAI_ORG_ID / OPENAI_PROJECT_ID from leaking to other providers.
    organization: null,
    project: null,
    maxRetries: 0,
    timeout: opts.timeoutMs,
    // The team service checks where a typed base URL points (net/outbound.ts).
    fetch: opts.fetch ?? outboundFetch('model', opts.outbound),
  });
}
