// The packaged app's fuses are security settings: a change to them must be deliberate.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

describe('electron-builder.yml', () => {
  it('turns off RunAsNode, NODE_OPTIONS and --inspect, and turns on cookie encryption and ASAR integrity', () => {
    const config = parse(readFileSync(new URL('../../../electron-builder.yml', import.meta.url), 'utf8')) as { electronFuses?: Record<string, boolean>; asar?: boolean };
    expect(config.asar).toBe(true);
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
  });
});
