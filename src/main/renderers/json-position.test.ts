import { describe, it, expect } from 'vitest';
import { findJsonError } from './json-position';

describe('findJsonError', () => {
  it('returns undefined for valid JSON', () => {
    expect(findJsonError('{"a": [1, -2.5e3, true, null, "x\\n\\u4e2d"]}')).toBeUndefined();
  });

  it('names the line and column of a trailing comma', () => {
    expect(findJsonError('{\n  "slides": [\n    1,\n  ]\n}')).toMatchObject({ line: 4, column: 3, message: 'trailing comma before "]"' });
  });

  it('finds a missing comma, an unterminated string and junk after the value', () => {
    expect(findJsonError('{"a": 1\n "b": 2}')).toMatchObject({ line: 2, column: 2 });
    expect(findJsonError('{"a": "oops}')).toMatchObject({ message: 'unterminated string' });
    expect(findJsonError('{} x')).toMatchObject({ line: 1, column: 4 });
    expect(findJsonError("{'a': 1}")).toMatchObject({ line: 1, column: 2 });
  });
});
