import { describe, expect, it } from 'vitest';
import { isAbsolutePath } from './paths';

describe('isAbsolutePath', () => {
  it('accepts POSIX, Windows drive and UNC paths', () => {
    expect(isAbsolutePath('/home/me/project')).toBe(true);
    expect(isAbsolutePath('  /srv/app ')).toBe(true);
    expect(isAbsolutePath('C:\\Users\\me\\code')).toBe(true);
    expect(isAbsolutePath('d:/work')).toBe(true);
    expect(isAbsolutePath('\\\\server\\share')).toBe(true);
  });

  it('refuses relative and home-relative paths', () => {
    expect(isAbsolutePath('project')).toBe(false);
    expect(isAbsolutePath('./project')).toBe(false);
    expect(isAbsolutePath('~/project')).toBe(false);
    expect(isAbsolutePath('C:project')).toBe(false);
    expect(isAbsolutePath('')).toBe(false);
  });
});
