import { describe, expect, it } from 'vitest';
import { commandOf, headlineOf, pathOf, prettyArgs } from './tool-args';

describe('tool arguments', () => {
  it('picks the field a reviewer needs', () => {
    expect(commandOf('{"command":"npm test","cwd":"."}')).toBe('npm test');
    expect(pathOf('{"path":"source/a.md","content":"x"}')).toBe('source/a.md');
    expect(headlineOf('{"url":"https://example.org"}')).toBe('https://example.org');
    expect(headlineOf('{"n":1}')).toBeNull();
  });

  it('shows malformed JSON as written', () => {
    expect(prettyArgs('{"path": ')).toBe('{"path": ');
    expect(commandOf('not json')).toBeNull();
    expect(prettyArgs('{"a":1}')).toBe('{\n  "a": 1\n}');
  });
});
