// Where JSON text first goes wrong, as line and column. Node 20's JSON.parse often says only
// "Unexpected token", so a small validating scanner finds the offset itself.

export type JsonErrorPosition = { line: number; column: number; offset: number };

export function jsonErrorPosition(text: string): JsonErrorPosition | undefined {
  const offset = firstErrorOffset(text);
  if (offset === undefined) return undefined;
  const before = text.slice(0, offset).split('\n');
  return { offset, line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}

class JsonSyntax extends Error {
  constructor(readonly offset: number) {
    super(`JSON syntax error at offset ${offset}`);
  }
}

function firstErrorOffset(text: string): number | undefined {
  let i = 0;
  const fail = (): never => {
    throw new JsonSyntax(i);
  };
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i] ?? '')) i++;
  };
  const literal = (word: string): void => {
    for (const ch of word) {
      if (text[i] !== ch) fail();
      i++;
    }
  };
  const string = (): void => {
    i++; // opening quote
    while (i < text.length) {
      const ch = text[i] ?? '';
      if (ch === '"') {
        i++;
        return;
      }
      if (ch === '\\') {
        i++;
        const esc = text[i] ?? '';
        if (esc === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail();
          i += 5;
        } else if ('"\\/bfnrt'.includes(esc) && esc !== '') i++;
        else fail();
      } else if (ch < ' ') fail();
      else i++;
    }
    fail();
  };
  const number = (): void => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!match) fail();
    i += match?.[0].length ?? 0;
  };
  const value = (): void => {
    ws();
    const ch = text[i];
    if (ch === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        string();
        ws();
        if (text[i] !== ':') fail();
        i++;
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return;
        } else fail();
      }
    } else if (ch === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          return;
        } else fail();
      }
    } else if (ch === '"') string();
    else if (ch === 't') literal('true');
    else if (ch === 'f') literal('false');
    else if (ch === 'n') literal('null');
    else number();
  };
  try {
    value();
    ws();
    if (i < text.length) fail();
    return undefined;
  } catch (err) {
    if (err instanceof JsonSyntax) return err.offset;
    throw err;
  }
}
