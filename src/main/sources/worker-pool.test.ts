import { describe, expect, it } from 'vitest';
import { withoutLoaders } from './worker-pool';

describe('withoutLoaders', () => {
  it('drops module-hook flags (both spellings) and keeps the rest', () => {
    expect(withoutLoaders(['--import', 'tsx', '--enable-source-maps', '--require=x.cjs', '-r', 'y', '--loader', 'z', '--max-old-space-size=512'])).toEqual([
      '--enable-source-maps',
      '--max-old-space-size=512',
    ]);
    expect(withoutLoaders([])).toEqual([]);
  });
});
