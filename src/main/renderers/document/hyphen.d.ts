// The part of `hyphen` Folio uses (the package ships no types; it is CommonJS, read as a default import).
declare module 'hyphen/en-us/index.js' {
  const enUs: {
    hyphenateSync(text: string, options?: { hyphenChar?: string; minWordLength?: number; exceptions?: string[] }): string;
  };
  export default enUs;
}
