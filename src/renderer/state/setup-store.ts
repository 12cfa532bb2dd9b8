// The model setup status: whether a new task would find a usable model. Asked at start, where
// nothing usable opens the setup screen (the `setup` view), and again as the person sets things up.
import { create } from 'zustand';
import type { SetupStatus } from '../../shared/contract/setup';
import { getApi } from './api';
import { useApp } from './app-store';
import { reportError } from './notices';

interface SetupState {
  status: SetupStatus | null;
  /** `atStart`: show the setup screen when nothing is usable. */
  load: (opts?: { atStart?: boolean }) => Promise<SetupStatus | null>;
  /** What a view opening shows: a status read in the last moments (the start check that opened the setup) or a new one. */
  ensure: () => Promise<SetupStatus | null>;
}

// The start check opens the setup screen, whose own check would ask the server again at once.
const REUSE_MS = 2000;
let inFlight: Promise<SetupStatus | null> | null = null;
let readAt = -Infinity;

export const useSetup = create<SetupState>((set, get) => ({
  status: null,

  ensure: () => {
    if (inFlight) return inFlight;
    const { status } = get();
    return status && Date.now() - readAt < REUSE_MS ? Promise.resolve(status) : get().load();
  },

  load: async (opts = {}) => {
    try {
      const request = getApi().client.getSetupStatus({});
      inFlight = request.catch(() => null);
      const status = await request;
      readAt = Date.now();
      set({ status });
      // Only if the person has not gone elsewhere meanwhile (a task, Settings).
      if (opts.atStart && !status.ready && useApp.getState().view === 'chat') useApp.getState().setView('setup');
      return status;
    } catch (err) {
      reportError(err);
      return null;
    } finally {
      inFlight = null;
    }
  },
}));
