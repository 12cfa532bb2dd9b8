// Text patches to pdfjs-dist's worker code, applied when it is loaded (pdfjs-load.ts) and measured
// in bench/pdf-extract: work that only drawing needs, or that pdfjs repeats per glyph, per font and
// per document, is skipped or kept per thread. Each patch is text that must be found exactly once;
// a patch whose text is missing (another pdfjs version) is left out, the others still apply.

export interface SourcePatch {
  search: string;
  replace: string;
  /** Put in front of the module when the patch applies (imports its replacement uses). */
  prelude?: string;
  /** Further edits that only work together with this one: all are made, or none. */
  with?: readonly { search: string; replace: string }[];
}

/**
 * TextState.clone() builds each clone with Object.create(this): every clone turns the previous
 * state into a prototype, which V8 handles slowly, and text extraction clones on every font change.
 * The clone copies all of the state's (own, plain) fields anyway, so giving it the class prototype
 * instead changes nothing but the speed.
 */
export const TEXT_STATE_CLONE: SourcePatch = {
  search: 'const clone = Object.assign(Object.create(this), this);',
  replace: 'const clone = Object.assign(Object.create(Object.getPrototypeOf(this)), this);',
};

/**
 * pdfjs turns every embedded CFF font (Type1C, CIDFontType0C: what TeX, InDesign and most CJK
 * PDFs embed) into a new OpenType font for the browser to draw with, even with `disableFontFace`.
 * Text needs the parsed font (charset, encoding, widths), never the recompiled one: compiling was
 * a third of the time of a 139-page Chinese book. The compiled bytes only go into the font's CFF
 * table, which nothing here draws; an empty table is what pdfjs's own fallback builds around too.
 */
export const CFF_COMPILE: SourcePatch = {
  search: 'this.data = compiler.compile();',
  replace: 'this.data = [];',
};

/**
 * After parsing an embedded Type 1 or CFF font, pdfjs builds an OpenType font from it for a
 * browser to draw with: glyph mapping, cmap, OS/2, hmtx and the rest, a quarter of the font time
 * of a 139-page Chinese book. Text reads the font's code → Unicode map and widths, which come from
 * the PDF and the parse; of the build it needs only the step that corrects the Unicode map for the
 * font's own encoding, which is kept. Nothing here draws (see CFF_COMPILE), so the font's data is empty.
 */
export const FONT_CONVERT: SourcePatch = {
  search: '          data = this.convert(name, cff, properties);',
  replace: [
    '          properties.fixedPitch = false;',
    '          if (properties.builtInEncoding) {',
    '            adjustType1ToUnicode(properties, properties.builtInEncoding);',
    '          }',
    '          data = new Uint8Array(0);',
  ].join('\n'),
};

/**
 * A Type 1 font (what pdfTeX embeds) is parsed, then its charstrings converted to Type 2 and
 * compiled into a CFF font, only for the OpenType build FONT_CONVERT leaves out. The parse stays:
 * it gives the font's encoding and matrix, and a font it cannot read still falls back as before.
 */
export const TYPE1_WRAP: SourcePatch = {
  search: [
    '    const type2Charstrings = this.getType2Charstrings(charstrings);',
    '    const subrs = this.getType2Subrs(data.subrs);',
    '    this.charstrings = charstrings;',
    '    this.data = this.wrap(name, type2Charstrings, this.charstrings, subrs, properties);',
    '    this.seacs = this.getSeacs(data.charstrings);',
  ].join('\n'),
  replace: ['    this.charstrings = charstrings;', '    this.data = new Uint8Array(0);', '    this.seacs = [];'].join('\n'),
};

/**
 * pdfjs runs its bidi algorithm on every text item: it first copies the item into an array of
 * one-character strings (a new string per CJK character) and types each character, then, when no
 * character is right-to-left (R, AL or AN), returns the text as it was. Only Hebrew, Arabic and
 * their presentation forms can be any of those (no Latin-1 character is), so an item without a
 * character in those ranges takes that same answer at once; any other item runs the algorithm.
 */
export const BIDI_LTR: SourcePatch = {
  search: ['  if (strLength === 0 || vertical) {', '    return createBidiText(str, isLTR, vertical);', '  }', '  chars.length = strLength;'].join('\n'),
  replace: [
    '  if (strLength === 0 || vertical) {',
    '    return createBidiText(str, isLTR, vertical);',
    '  }',
    '  let folioMaybeRtl = false;',
    '  for (let i = 0; i < strLength; ++i) {',
    '    const c = str.charCodeAt(i);',
    '    if (c >= 0x0590 && (c <= 0x08ac || (c >= 0xfb50 && c <= 0xfdff) || (c >= 0xfe70 && c <= 0xfeff))) {',
    '      folioMaybeRtl = true;',
    '      break;',
    '    }',
    '  }',
    '  if (!folioMaybeRtl) {',
    '    return createBidiText(str, true);',
    '  }',
    '  chars.length = strLength;',
  ].join('\n'),
};

/**
 * Every font change in a content stream (`Tf`: TeX switches faces every few words) suspends pdfjs's
 * text loop until the font is loaded, then resumes it through a Promise.all with the output
 * stream's readiness: a few microtask turns and their promises, closures and arrays (about a
 * tenth of what a Chinese book's text allocates), even when the font is one the page already
 * loaded. A font loaded by name in this run of the loop (the page, or one form XObject with its
 * own resources) is the one loadFont would answer again, so it is set at once and the loop goes on.
 * The output is the same items, handed on in fewer, larger chunks.
 */
export const FONT_SWITCH: SourcePatch = {
  search: [
    '    async function handleSetFont(fontName, fontRef) {',
    '      const translated = await self.loadFont(fontName, fontRef, resources, task);',
  ].join('\n'),
  replace: [
    '    const folioFonts = new Map();',
    '    async function handleSetFont(fontName, fontRef) {',
    '      const translated = await self.loadFont(fontName, fontRef, resources, task);',
    '      if (fontName !== null && !fontRef) {',
    '        folioFonts.set(fontName, translated);',
    '      }',
  ].join('\n'),
  // The text loop's `Tf`, answered from the fonts already loaded.
  with: [
    {
      search: ['            textState.fontSize = fontSizeArg;', '            next(handleSetFont(fontNameArg, null));', '            return;'].join('\n'),
      replace: [
        '            textState.fontSize = fontSizeArg;',
        '            const folioLoaded = folioFonts.get(fontNameArg);',
        '            if (folioLoaded !== undefined) {',
        '              textState.loadedName = folioLoaded.loadedName;',
        '              textState.font = folioLoaded.font;',
        '              textState.fontMatrix = folioLoaded.font.fontMatrix || FONT_IDENTITY_MATRIX;',
        '              break;',
        '            }',
        '            next(handleSetFont(fontNameArg, null));',
        '            return;',
      ].join('\n'),
    },
  ],
};

const MAX_KEPT_CMAPS = 24;

/**
 * pdfjs parses a predefined CMap (e.g. Adobe-GB1-UCS2, which maps a Chinese font's CIDs to
 * Unicode) again for every font that needs it, in every document: five times per document for a
 * book set in the four Fandol faces, each parse filling a 30,000-entry table. A parsed built-in CMap
 * is never changed after its parse (a CMap that uses one copies its entries), so the thread keeps
 * each one, by name, for every later font and document. A failed load is not kept; past
 * MAX_KEPT_CMAPS the oldest goes (a document uses a handful; the list has about 170).
 */
export const BUILT_IN_CMAPS: SourcePatch = {
  search: 'async function createBuiltInCMap(name, fetchBuiltInCMap) {',
  replace:
    'const folioBuiltInCMaps = new Map();\n' +
    'function createBuiltInCMap(name, fetchBuiltInCMap) {\n' +
    '  let parsed = folioBuiltInCMaps.get(name);\n' +
    '  if (!parsed) {\n' +
    '    parsed = parseBuiltInCMap(name, fetchBuiltInCMap);\n' +
    '    folioBuiltInCMaps.set(name, parsed);\n' +
    `    if (folioBuiltInCMaps.size > ${MAX_KEPT_CMAPS}) folioBuiltInCMaps.delete(folioBuiltInCMaps.keys().next().value);\n` +
    '    parsed.catch(() => folioBuiltInCMaps.delete(name));\n' +
    '  }\n' +
    '  return parsed;\n' +
    '}\n' +
    'async function parseBuiltInCMap(name, fetchBuiltInCMap) {',
};

/**
 * pdfjs inflates each Flate stream through a web DecompressionStream: a stream, a writer and a
 * promise per chunk for what are mostly a few kilobytes of page content. We are in a worker thread
 * already, so Node's synchronous zlib does it in one call. Bad data still takes pdfjs's own path:
 * its tolerant JavaScript inflater, exactly as when DecompressionStream fails.
 */
export const SYNC_INFLATE: SourcePatch = {
  search: '    const bytes = this.stream.isAsync ? await this.stream.asyncGetBytes() : this.stream.getBytes();\n    try {\n',
  replace:
    '    const bytes = this.stream.isAsync ? await this.stream.asyncGetBytes() : this.stream.getBytes();\n' +
    '    if (name === "deflate") {\n' +
    '      try {\n' +
    '        return { decompressed: folioZlib.inflateSync(bytes), compressed: bytes };\n' +
    '      } catch {\n' +
    '        return { decompressed: null, compressed: bytes };\n' +
    '      }\n' +
    '    }\n' +
    '    try {\n',
  prelude: 'import folioZlib from "node:zlib";\n',
};

/**
 * A composite font without its own ToUnicode map (the Fandol faces TeX uses for Chinese) gets one
 * built by walking its encoding CMap, 65,536 codes for Identity-H, through the character
 * collection's UCS2 CMap: per font, per document. The table depends only on those two CMaps, and
 * with BUILT_IN_CMAPS both are the thread's kept objects, so the table is kept with them (in a
 * WeakMap, so it goes when they go). Each font gets its own copy, since pdfjs amends a font's map.
 */
const CID_TO_UNICODE_LOOP = [
  '      const toUnicode = [],',
  '        buf = [];',
  '      properties.cMap.forEach(function (charcode, cid) {',
  '        if (cid > 0xffff) {',
  '          throw new FormatError("Max size of CID is 65,535");',
  '        }',
  '        const ucs2 = ucs2CMap.lookup(cid);',
  '        if (ucs2) {',
  '          buf.length = 0;',
  '          for (let i = 0, ii = ucs2.length; i < ii; i += 2) {',
  '            buf.push((ucs2.charCodeAt(i) << 8) + ucs2.charCodeAt(i + 1));',
  '          }',
  '          toUnicode[charcode] = String.fromCharCode(...buf);',
  '        }',
  '      });',
  '      return new ToUnicodeMap(toUnicode);',
].join('\n');

export const CID_TO_UNICODE: SourcePatch = {
  search: CID_TO_UNICODE_LOOP,
  replace: [
    '      let folioTables = folioToUnicodeTables.get(properties.cMap);',
    '      if (!folioTables) {',
    '        folioTables = new WeakMap();',
    '        folioToUnicodeTables.set(properties.cMap, folioTables);',
    '      }',
    '      const folioTable = folioTables.get(ucs2CMap);',
    '      if (folioTable) {',
    '        return new ToUnicodeMap(folioTable.slice());',
    '      }',
    CID_TO_UNICODE_LOOP.replace('      return new ToUnicodeMap(toUnicode);', '      folioTables.set(ucs2CMap, toUnicode.slice());\n      return new ToUnicodeMap(toUnicode);'),
  ].join('\n'),
  prelude: 'const folioToUnicodeTables = new WeakMap();\n',
};

const TEXT_TRANSFORM_BODY = [
  '      const font = textState.font;',
  '      const tsm = [textState.fontSize * textState.textHScale, 0, 0, textState.fontSize, 0, textState.textRise];',
  '      if (font.isType3Font && (textState.fontSize <= 1 || font.isCharBBox) && !isArrayEqual(textState.fontMatrix, FONT_IDENTITY_MATRIX)) {',
  '        const glyphHeight = font.bbox[3] - font.bbox[1];',
  '        if (glyphHeight > 0) {',
  '          tsm[3] *= glyphHeight * textState.fontMatrix[3];',
  '        }',
  '      }',
].join('\n');

/**
 * Text extraction asks for the current text transform (two 3×2 matrix products and three new
 * arrays) twice per glyph: to compare the glyph's position with the last one, and again after the
 * advance, to keep as the last position; the next glyph asks for that same one. It was an eighth of
 * a warm worker's time on a Chinese book, plus the garbage. The result depends only on the text
 * state's numbers and font, so the last one is kept and given out again while they are unchanged.
 * Nothing changes a transform array once given out (items share them already).
 *
 * The glyph's advance moves the text matrix, so one call per glyph still computes. It does so
 * without pdfjs's `Util.transform` and the two arrays around it (the font-size matrix and the inner
 * product, garbage at once): the same products written out, term by term in `Util.transform`'s
 * order, so every number is the one pdfjs computes (the test compares every item bit for bit).
 */
export const TEXT_TRANSFORM: SourcePatch = {
  search: `    function getCurrentTextTransform() {\n${TEXT_TRANSFORM_BODY}\n      return Util.transform(textState.ctm, Util.transform(textState.textMatrix, tsm));\n    }`,
  replace: [
    '    const folioKey = new Float64Array(15);',
    '    let folioLast = null, folioLastFont = null, folioLastFontMatrix = null;',
    '    function getCurrentTextTransform() {',
    '      const folioCtm = textState.ctm, folioTm = textState.textMatrix, k = folioKey;',
    '      if (folioLast !== null && folioLastFont === textState.font && folioLastFontMatrix === textState.fontMatrix &&',
    '          k[0] === textState.fontSize && k[1] === textState.textHScale && k[2] === textState.textRise &&',
    '          k[3] === folioTm[0] && k[4] === folioTm[1] && k[5] === folioTm[2] && k[6] === folioTm[3] && k[7] === folioTm[4] && k[8] === folioTm[5] &&',
    '          k[9] === folioCtm[0] && k[10] === folioCtm[1] && k[11] === folioCtm[2] && k[12] === folioCtm[3] && k[13] === folioCtm[4] && k[14] === folioCtm[5]) {',
    '        return folioLast;',
    '      }',
    '      const font = textState.font;',
    '      const s0 = textState.fontSize * textState.textHScale, s1 = 0, s2 = 0, s4 = 0, s5 = textState.textRise;',
    '      let s3 = textState.fontSize;',
    '      if (font.isType3Font && (textState.fontSize <= 1 || font.isCharBBox) && !isArrayEqual(textState.fontMatrix, FONT_IDENTITY_MATRIX)) {',
    '        const glyphHeight = font.bbox[3] - font.bbox[1];',
    '        if (glyphHeight > 0) {',
    '          s3 *= glyphHeight * textState.fontMatrix[3];',
    '        }',
    '      }',
    '      const t0 = folioTm[0], t1 = folioTm[1], t2 = folioTm[2], t3 = folioTm[3], t4 = folioTm[4], t5 = folioTm[5];',
    '      const i0 = t0 * s0 + t2 * s1, i1 = t1 * s0 + t3 * s1, i2 = t0 * s2 + t2 * s3, i3 = t1 * s2 + t3 * s3;',
    '      const i4 = t0 * s4 + t2 * s5 + t4, i5 = t1 * s4 + t3 * s5 + t5;',
    '      const c0 = folioCtm[0], c1 = folioCtm[1], c2 = folioCtm[2], c3 = folioCtm[3], c4 = folioCtm[4], c5 = folioCtm[5];',
    '      folioLast = [c0 * i0 + c2 * i1, c1 * i0 + c3 * i1, c0 * i2 + c2 * i3, c1 * i2 + c3 * i3, c0 * i4 + c2 * i5 + c4, c1 * i4 + c3 * i5 + c5];',
    '      k[0] = textState.fontSize; k[1] = textState.textHScale; k[2] = textState.textRise;',
    '      for (let i = 0; i < 6; i++) {',
    '        k[3 + i] = folioTm[i];',
    '        k[9 + i] = folioCtm[i];',
    '      }',
    '      folioLastFont = font;',
    '      folioLastFontMatrix = textState.fontMatrix;',
    '      return folioLast;',
    '    }',
  ].join('\n'),
};

export const WORKER_PATCHES: readonly SourcePatch[] = [TEXT_STATE_CLONE, CFF_COMPILE, FONT_CONVERT, TYPE1_WRAP, BUILT_IN_CMAPS, SYNC_INFLATE, CID_TO_UNICODE, TEXT_TRANSFORM, BIDI_LTR, FONT_SWITCH];

/**
 * The patched source, or null when none of the patches' texts is there exactly once (each patch
 * whose text is missing or ambiguous, or overlaps an earlier patch's, is left out). Every text is
 * looked for in pdfjs's own source and the result is built once: editing the 2.4 MB string patch
 * by patch copied it each time (~15 ms a patch, most of a thread's time to load pdfjs). Its
 * source-map comment goes: relative to a data: URL it is an invalid URL, which fails the import
 * when source maps are on (tsx turns them on).
 */
export function patchWorkerSource(source: string, patches: readonly SourcePatch[] = WORKER_PATCHES): string | null {
  const once = (search: string) => {
    const at = source.indexOf(search);
    return at >= 0 && source.indexOf(search, at + 1) < 0 ? at : -1;
  };
  const edits: { at: number; end: number; replace: string }[] = [];
  const free = (at: number, end: number) => edits.every((edit) => end <= edit.at || at >= edit.end);
  let prelude = '';
  for (const patch of patches) {
    const found: typeof edits = [];
    for (const { search, replace } of [patch, ...(patch.with ?? [])]) {
      const at = once(search);
      if (at < 0 || !free(at, at + search.length) || found.some((edit) => at < edit.end && at + search.length > edit.at)) break;
      found.push({ at, end: at + search.length, replace });
    }
    if (found.length !== 1 + (patch.with?.length ?? 0)) continue;
    edits.push(...found);
    prelude += patch.prelude ?? '';
  }
  if (edits.length === 0) return null;
  edits.sort((a, b) => a.at - b.at);
  const parts = [prelude];
  let from = 0;
  for (const edit of edits) {
    parts.push(source.slice(from, edit.at), edit.replace);
    from = edit.end;
  }
  parts.push(source.slice(from));
  return parts.join('').replace(/\n\/\/# sourceMappingURL=[^\n]*\s*$/u, '\n');
}
