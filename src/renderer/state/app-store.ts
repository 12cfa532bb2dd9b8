// App-wide data: which page is shown, settings, model profiles, skills and their config warnings.
import { create } from 'zustand';
import type { ConfigWarning, ModelProfileInfo, Settings, SkillInfo } from '../../shared/contract';
import { applyLanguageSetting } from '../i18n';
import { getApi } from './api';
import { reportError } from './notices';

// 'project': a project's page or the personal library (which one: the projects store).
export type View = 'chat' | 'settings' | 'setup' | 'project';

interface AppState {
  view: View;
  settings: Settings | null;
  profiles: ModelProfileInfo[];
  modelWarnings: ConfigWarning[];
  skills: SkillInfo[];
  skillWarnings: ConfigWarning[];
  setView: (view: View) => void;
  loadSettings: () => Promise<void>;
  loadModels: () => Promise<void>;
  loadSkills: () => Promise<void>;
  setLanguage: (language: Settings['language']) => Promise<void>;
  setDefaultModel: (model: string | null) => Promise<void>;
  /** Stores a key for an env variable; resolves true when saved. */
  saveApiKey: (env: string, key: string) => Promise<boolean>;
}

/** Counts the person's language choices, so a settings answer asked for before one does not undo it. */
let languageChanges = 0;

export const useApp = create<AppState>((set, get) => ({
  view: 'chat',
  settings: null,
  profiles: [],
  modelWarnings: [],
  skills: [],
  skillWarnings: [],

  setView: (view) => set({ view }),

  loadSettings: async () => {
    const asked = languageChanges;
    try {
      const settings = await getApi().client.getSettings({});
      // A language chosen while this answer was on its way is newer than the answer.
      if (asked !== languageChanges) return;
      set({ settings });
      await applyLanguageSetting(settings.language);
    } catch (err) {
      reportError(err);
    }
  },

  loadModels: async () => {
    try {
      const { profiles, warnings } = await getApi().client.listModels({});
      set({ profiles, modelWarnings: warnings });
    } catch (err) {
      reportError(err);
    }
  },

  loadSkills: async () => {
    try {
      const { skills, warnings } = await getApi().client.listSkills({});
      set({ skills, skillWarnings: warnings });
    } catch (err) {
      reportError(err);
    }
  },

  setLanguage: async (language) => {
    languageChanges += 1;
    // Switch at once; the server round-trip only makes the choice stick.
    await applyLanguageSetting(language);
    try {
      const settings = await getApi().client.updateSettings({ language });
      set({ settings });
    } catch (err) {
      reportError(err);
      const previous = get().settings?.language;
      if (previous) await applyLanguageSetting(previous);
    }
  },

  setDefaultModel: async (model) => {
    try {
      const settings = await getApi().client.updateSettings({ default_model: model });
      set({ settings });
    } catch (err) {
      reportError(err);
    }
  },

  saveApiKey: async (env, key) => {
    try {
      await getApi().client.setApiKey({ env, key });
      await get().loadModels();
      return true;
    } catch (err) {
      reportError(err);
      return false;
    }
  },
}));
