// The one way Folio builds an `openai` SDK client for a profile: the SDK's own retries are off
// (Folio retries with its own rules), and nothing leaks in from OPENAI_* environment variables.
import OpenAI from 'openai';
import type { ModelProfile } from '../models/profile-schema';

/** Placeholder for key-less providers: the SDK refuses to start without some key. */
const NO_KEY = 'no-key-needed';

export function createOpenAIClient(profile: Pick<ModelProfile, 'api_base'>, apiKey: string, opts: { timeoutMs: number; fetch?: typeof fetch }): OpenAI {
  return new OpenAI({
    baseURL: profile.api_base,
    apiKey: apiKey === '' ? NO_KEY : apiKey,
    // Explicit nulls keep OPENAI_ORG_ID / OPENAI_PROJECT_ID from leaking to other providers.
    organization: null,
    project: null,
    maxRetries: 0,
    timeout: opts.timeoutMs,
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  });
}
