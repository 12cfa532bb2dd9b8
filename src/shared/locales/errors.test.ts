import { describe, expect, it } from 'vitest';
import * as errorClasses from '../errors';
import { errorCodes } from '../folio-error';
import { errorHelpKey, namedErrors, type ErrorCatalog } from './errors';
import { errorCatalogEn, loadErrorCatalogZhCN } from './shared-strings';

const cjk = /[\u3400-\u9fff]/u;

describe('the error catalog', () => {
  it('explains every error code, every named error class and an unknown error, in English and in Chinese', async () => {
    const zhCN = await loadErrorCatalogZhCN();
    for (const [language, catalog] of [['en', errorCatalogEn], ['zh-CN', zhCN]] as const) {
      for (const code of [...errorCodes, 'unknown' as const]) {
        expect(catalog.errorKind[code]?.trim(), `${language} errorKind.${code}`).toBeTruthy();
        expect(catalog.errorHelp[code]?.trim(), `${language} errorHelp.${code}`).toBeTruthy();
      }
      for (const name of namedErrors) expect(catalog.errorHelp[name]?.trim(), `${language} errorHelp.${name}`).toBeTruthy();
    }
    for (const key of [...Object.keys(zhCN.errorKind), ...Object.keys(zhCN.errorHelp)]) {
      const text = zhCN.errorKind[key as keyof ErrorCatalog['errorKind']] ?? zhCN.errorHelp[key as keyof ErrorCatalog['errorHelp']];
      expect(text, key).toMatch(cjk);
    }
  });

  it('holds the same keys in both languages', async () => {
    const zhCN = await loadErrorCatalogZhCN();
    expect(Object.keys(zhCN.errorKind).sort()).toEqual(Object.keys(errorCatalogEn.errorKind).sort());
    expect(Object.keys(zhCN.errorHelp).sort()).toEqual(Object.keys(errorCatalogEn.errorHelp).sort());
  });

  it('names only error classes that exist, each by the name it carries', () => {
    const classes = errorClasses as unknown as Record<string, new (message: string) => Error>;
    for (const name of namedErrors) expect(new classes[name]('x').name, name).toBe(name);
  });

  it('explains an error by its class where the class names the cause, else by its code', () => {
    expect(errorHelpKey({ name: 'ProviderKeyRejectedError', code: 'provider_error' })).toBe('errorHelp.ProviderKeyRejectedError');
    expect(errorHelpKey({ name: 'FolioError', code: 'rate_limited' })).toBe('errorHelp.rate_limited');
    expect(errorHelpKey({ code: 'internal' })).toBe('errorHelp.internal');
  });
});
