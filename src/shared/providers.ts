// What the setup shows for a provider it knows: a name a person recognises (from the locale) and where
// that provider hands out API keys. A provider Folio does not know keeps the id its profiles give it.
const keyPages: Record<string, string> = {
  deepseek: 'https://platform.deepseek.com/api_keys',
  openai: 'https://platform.openai.com/api-keys',
  qwen: 'https://bailian.console.aliyun.com/?tab=model#/api-key',
  zhipu: 'https://open.bigmodel.cn/usercenter/apikeys',
  ollama: 'https://ollama.com/download',
};

/** The page where a key for `provider` is made (for Ollama, the download: it needs no key). */
export function providerKeyPage(provider: string): string | null {
  return keyPages[provider] ?? null;
}

/** The i18n key of the provider's display name, or null when the id itself is the name. */
export function providerNameKey(provider: string): string | null {
  return provider in keyPages ? `providers.${provider}` : null;
}
