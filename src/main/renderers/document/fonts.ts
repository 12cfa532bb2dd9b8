// Which faces a document names. Word picks the face for each character from the run's rFonts slot:
// ASCII/hAnsi for Latin, eastAsia for CJK, cs for complex scripts. So every style names all four, and
// CJK text gets a CJK face whatever run it is in.
//
// The names are the ones Word users have (Windows ships SimSun/SimHei; Office for Mac maps them too).
// LibreOffice on Linux has none of them and asks fontconfig, which with fonts-noto-cjk installed answers
// SimSun → Noto Serif CJK SC and SimHei → Noto Sans CJK SC for zh-CN text, and Times New Roman / Arial →
// the metric-compatible Liberation Serif / Sans. Checked with pdffonts on LibreOffice's PDF.

export type FontSet = { ascii: string; hAnsi: string; eastAsia: string; cs: string };
export type FontRole = 'body' | 'heading' | 'mono';

type EastAsianFaces = { serif: string; sans: string };

const EAST_ASIAN_FACES: Record<string, EastAsianFaces> = {
  'zh-CN': { serif: 'SimSun', sans: 'SimHei' },
  'zh-TW': { serif: 'PMingLiU', sans: 'Microsoft JhengHei' },
  'ja-JP': { serif: 'MS Mincho', sans: 'MS Gothic' },
  'ko-KR': { serif: 'Batang', sans: 'Malgun Gothic' },
};

/** The faces LibreOffice-on-Linux renders them with; used by tests and docs, not written to the file. */
export const CJK_FACE_NAMES: readonly string[] = [
  ...Object.values(EAST_ASIAN_FACES).flatMap((f) => [f.serif, f.sans]),
  'Noto Serif CJK SC',
  'Noto Sans CJK SC',
];

const LATIN = { serif: 'Times New Roman', sans: 'Arial', mono: 'Courier New' };

/** The East Asian language a document's CJK text is in: its own if it is CJK, Simplified Chinese otherwise. */
export function eastAsianLanguage(language: string): string {
  const lower = language.toLowerCase();
  if (lower === 'zh-tw' || lower === 'zh-hk' || lower.startsWith('zh-hant')) return 'zh-TW';
  if (lower.startsWith('ja')) return 'ja-JP';
  if (lower.startsWith('ko')) return 'ko-KR';
  return 'zh-CN';
}

export function isCjkLanguage(language: string): boolean {
  return /^(zh|ja|ko)(-|$)/i.test(language);
}

export function fontSet(role: FontRole, language: string): FontSet {
  const ea = eastAsianLanguage(language);
  const faces = EAST_ASIAN_FACES[ea] ?? EAST_ASIAN_FACES['zh-CN'] ?? { serif: 'SimSun', sans: 'SimHei' };
  const latin = role === 'heading' ? LATIN.sans : role === 'mono' ? LATIN.mono : LATIN.serif;
  const eastAsia = role === 'heading' ? faces.sans : faces.serif;
  return { ascii: latin, hAnsi: latin, eastAsia, cs: latin };
}

/** The `w:lang` of the document defaults: Latin text in the document's language (or en-US), CJK in its East Asian one. */
export function runLanguage(language: string): { value: string; eastAsia: string } {
  const value = isCjkLanguage(language) ? 'en-US' : language.includes('-') ? language : language === 'en' ? 'en-US' : language;
  return { value, eastAsia: eastAsianLanguage(language) };
}
