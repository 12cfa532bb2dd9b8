import { describe, expect, it } from 'vitest';
import { useUiLanguage } from '../i18n/ui-language.test-support';
import type { FolioClient, Settings } from '../../shared/contract';
import type { FolioApi } from '../api/folio-api';
import { i18n } from '../i18n';
import { setApi } from './api';
import { useApp } from './app-store';

/** A server whose settings answer is held until released; updateSettings stores at once. */
function installApi(stored: Settings) {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let current = stored;
  const client = {
    getSettings: async () => {
      const answer = current;
      await held;
      return answer;
    },
    updateSettings: async (patch: Partial<Settings>) => {
      current = { ...current, ...patch };
      return current;
    },
  } as unknown as FolioClient;
  const api = { kind: 'http', client } as unknown as FolioApi;
  setApi(api);
  return { release };
}

describe('the language setting', () => {
  useUiLanguage('zh-CN');

  it('keeps the language the person chose while an older settings answer was on its way', async () => {
    const stored = { language: 'zh-CN' } as Settings;
    const server = installApi(stored);
    const loading = useApp.getState().loadSettings();
    await useApp.getState().setLanguage('en');
    server.release();
    await loading;
    expect(i18n.language).toBe('en');
    expect(useApp.getState().settings?.language).toBe('en');
  });
});
