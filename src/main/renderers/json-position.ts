// Where a JSON text first goes wrong. Node's JSON.parse does not always say (Node 20 often gives
// only a snippet), and a person fixing a hand-written spec needs the line and column.

export interface JsonErrorPosition {
  offset: number;
  line: number;
  column: number;
  message: string;
}

class JsonSyntax extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

/** Returns the first syntax error's position, or undefined if the text is valid JSON. */
export function findJsonError(text: string): JsonErrorPosition | undefined {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text.charAt(i))) i++;
  };
  const fail = (message: string): never => {
    throw new JsonSyntax(i, message);
  };
  const describe = (): string => (i >= text.length ? 'end of input' : `"${text.charAt(i)}"`);
  const literal = (word: string): void => {
    if (text.startsWith(word, i)) i += word.length;
    else fail(`unexpected ${describe()}`);
  };
  const string = (): void => {
    i++;
    while (i < text.length) {
      const ch = text.charAt(i);
      if (ch === '"') {
        i++;
        return;
      }
      if (ch === '\\') {
        const next = text.charAt(i + 1);
        if (next === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('bad \\u escape');
          i += 6;
        } else if ('"\\/bfnrt'.includes(next) && next !== '') i += 2;
        else fail('bad escape');
        continue;
      }
      if (ch < ' ') fail('control character in string (use \\n)');
      i++;
    }
    fail('unterminated string');
  };
  const number = (): void => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m) fail(`unexpected ${describe()}`);
    else i += m[0].length;
  };
  const value = (): void => {
    ws();
    const ch = text.charAt(i);
    if (ch === '{') return object();
    if (ch === '[') return array();
    if (ch === '"') return string();
    if (ch === 't') return literal('true');
    if (ch === 'f') return literal('false');
    if (ch === 'n') return literal('null');
    if (ch === '-' || (ch >= '0' && ch <= '9')) return number();
    fail(`expected a value, found ${describe()}`);
  };
  const object = (): void => {
    i++;
    ws();
    if (text.charAt(i) === '}') {
      i++;
      return;
    }
    for (;;) {
      ws();
      if (text.charAt(i) !== '"') fail(`expected a "key", found ${describe()} (trailing comma?)`);
      string();
      ws();
      if (text.charAt(i) !== ':') fail(`expected ":", found ${describe()}`);
      i++;
      value();
      ws();
      if (text.charAt(i) === ',') {
        i++;
        continue;
      }
      if (text.charAt(i) === '}') {
        i++;
        return;
      }
      fail(`expected "," or "}", found ${describe()}`);
    }
  };
  const array = (): void => {
    i++;
    ws();
    if (text.charAt(i) === ']') {
      i++;
      return;
    }
    for (;;) {
      value();
      ws();
      if (text.charAt(i) === ',') {
        i++;
        ws();
        if (text.charAt(i) === ']') fail('trailing comma before "]"');
        continue;
      }
      if (text.charAt(i) === ']') {
        i++;
        return;
      }
      fail(`expected "," or "]", found ${describe()}`);
    }
  };
  try {
    value();
    ws();
    if (i < text.length) fail(`unexpected ${describe()} after the end of the JSON value`);
    return undefined;
  } catch (err) {
    if (!(err instanceof JsonSyntax)) throw err;
    const before = text.slice(0, err.offset);
    const line = before.split('\n').length;
    return { offset: err.offset, line, column: err.offset - before.lastIndexOf('\n'), message: err.message };
  }
}
