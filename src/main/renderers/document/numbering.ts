// Word numbering definitions: headings (linked to the Heading styles, so the numbers are real Word
// numbering that Word and LibreOffice both compute), bullet lists, ordered lists and the reference list.
// Ordered and reference lists restart because each list is written with its own `instance`.
import { AlignmentType, type ILevelsOptions, LevelFormat, LevelSuffix, type INumberingOptions } from 'docx';
import {
  type HeadingNumbering,
  headingNumberFormats,
  listNumberFormats,
  NUMBERED_HEADING_LEVELS,
  type NumberFormat,
  type NumberingLevel,
} from '../../../shared/specs/document';

export const HEADING_NUMBERING = 'folio-headings';
export const BULLET_NUMBERING = 'folio-bullets';
export const ORDERED_NUMBERING = 'folio-ordered';
export const REFERENCE_NUMBERING = 'folio-references';

export { NUMBERED_HEADING_LEVELS };
export const HEADING_STYLE_IDS = ['Heading1', 'Heading2', 'Heading3', 'Heading4'] as const;

const LIST_STEP = 420; // twips per nesting level: about two CJK characters at 10.5–12 pt
const BULLETS = ['•', '◦', '▪'];

const WORD_FORMAT: Record<NumberFormat, (typeof LevelFormat)[keyof typeof LevelFormat]> = {
  decimal: LevelFormat.DECIMAL,
  chineseCounting: LevelFormat.CHINESE_COUNTING,
  decimalEnclosedCircle: LevelFormat.DECIMAL_ENCLOSED_CIRCLE,
  lowerLetter: LevelFormat.LOWER_LETTER,
  lowerRoman: LevelFormat.LOWER_ROMAN,
};

const WORD_SUFFIX: Record<NumberingLevel['suffix'], (typeof LevelSuffix)[keyof typeof LevelSuffix]> = {
  nothing: LevelSuffix.NOTHING,
  space: LevelSuffix.SPACE,
  tab: LevelSuffix.TAB,
};

function headingLevels(style: HeadingNumbering): ILevelsOptions[] {
  return headingNumberFormats[style].map((level, i) => ({
    level: i,
    format: WORD_FORMAT[level.format],
    text: level.text,
    suffix: WORD_SUFFIX[level.suffix],
    alignment: AlignmentType.LEFT,
    style: {
      style: HEADING_STYLE_IDS[i],
      paragraph: { indent: { left: 0, hanging: 0 } },
    },
  }));
}

function listLevels(kind: 'bullet' | 'ordered', style: HeadingNumbering): ILevelsOptions[] {
  const formats = listNumberFormats[style];
  return Array.from({ length: 9 }, (_, level) => {
    // Level n repeats the format of level n mod 3, with its own counter (%n+1).
    const cycle = formats[level % formats.length] ?? { format: 'decimal', text: '%1.', suffix: 'tab' };
    return {
      level,
      format: kind === 'bullet' ? LevelFormat.BULLET : WORD_FORMAT[cycle.format],
      text: kind === 'bullet' ? (BULLETS[level % BULLETS.length] ?? '•') : cycle.text.replace(/%\d/g, `%${level + 1}`),
      alignment: AlignmentType.LEFT,
      style: { paragraph: { indent: { left: LIST_STEP * (level + 1), hanging: LIST_STEP } } },
    };
  });
}

export function numberingConfig(headings: HeadingNumbering): INumberingOptions {
  return {
    config: [
      { reference: HEADING_NUMBERING, levels: headingLevels(headings) },
      { reference: BULLET_NUMBERING, levels: listLevels('bullet', headings) },
      { reference: ORDERED_NUMBERING, levels: listLevels('ordered', headings) },
      {
        reference: REFERENCE_NUMBERING,
        levels: [
          {
            level: 0,
            format: LevelFormat.DECIMAL,
            text: '[%1]',
            alignment: AlignmentType.LEFT,
            style: { paragraph: { indent: { left: 560, hanging: 560 } } },
          },
        ],
      },
    ],
  };
}
