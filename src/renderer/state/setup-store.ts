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
}

export const useSetup = create<SetupState>((set) => ({
  status: null,

  load: async (opts = {}) => {
    try {
      const status = await getApi().client.getSetupStatus({});
      set({ status });
      // Only if the person has not gone elsewhere meanwhile (a task, Settings).
      if (opts.atStart && !status.ready && useApp.getState().view === 'chat') useApp.getState().setView('setup');
      return status;
    } catch (err) {
      reportError(err);
      return null;
    }
  },
}));
