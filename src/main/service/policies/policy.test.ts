// Policies are layers: applied once, in order, the last outermost, and the result cannot be patched.
import { describe, expect, it } from 'vitest';
import type { ServiceHandlers } from '../../../shared/contract';
import { applyPolicies, type HandlerPolicy } from './policy';

const base = {
  getUsage: async () => ({ calls: ['base'] }),
  getSettings: async () => ({ calls: ['base settings'] }),
} as unknown as ServiceHandlers;

const tagging = (name: string): HandlerPolicy => ({
  name,
  wrap: (inner) => ({
    getUsage: async (input) => {
      const out = (await inner.getUsage(input)) as unknown as { calls: string[] };
      return { calls: [...out.calls, name] } as unknown as Awaited<ReturnType<ServiceHandlers['getUsage']>>;
    },
  }),
});

describe('applyPolicies', () => {
  it('applies each policy once, in the order given, the last one outermost', async () => {
    const handlers = applyPolicies(base, [tagging('quota'), tagging('team rules')]);
    expect(await handlers.getUsage({})).toEqual({ calls: ['base', 'quota', 'team rules'] });
    // Methods no policy names are the base's own.
    expect(handlers.getSettings).toBe(base.getSettings);
  });

  it('returns frozen handlers: no handler can be reassigned after construction', () => {
    const handlers = applyPolicies(base, [tagging('quota')]);
    expect(Object.isFrozen(handlers)).toBe(true);
    expect(() => {
      (handlers as ServiceHandlers).getUsage = base.getUsage;
    }).toThrow(TypeError);
  });

  it('leaves the base handlers untouched', async () => {
    applyPolicies(base, [tagging('quota')]);
    expect(await base.getUsage({})).toEqual({ calls: ['base'] });
  });
});
