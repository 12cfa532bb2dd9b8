// Tokens and cost across all tasks, for the settings page and the task list's footer.
import { create } from 'zustand';
import type { Usage } from '../../shared/contract';
import { getApi } from './api';

interface UsageState {
  total: Usage | null;
  load: () => Promise<void>;
}

export const useUsage = create<UsageState>((set) => ({
  total: null,
  load: async () => {
    try {
      const { total } = await getApi().client.getUsage({});
      set({ total });
    } catch {
      // Usage is a convenience figure: a failed refresh keeps the last one rather than nagging.
    }
  },
}));
