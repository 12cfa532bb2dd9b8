// Word numbering definitions: headings (linked to the Heading styles, so the numbers are real Word
// numbering that Word and LibreOffice both compute), bullet lists, ordered lists and the reference list.
// Ordered and reference lists restart because each list is written with its own `instance`.
import { AlignmentType, type ILevelsOptions, LevelFormat, LevelSuffix, type INumberingOptions } from 'docx';
import { type HeadingNumbering } from '../../../shared/specs/document';

export const HEADING_NUMBERING = 'folio-headings';
export const BULLET_NUMBERING = 'folio-bullets';
export const ORDERED_NUMBERING = 'folio-ordered';
export const REFERENCE_NUMBERING = 'folio-references';

/** Numbered heading levels; deeper headings are styled but not numbered. */
export const NUMBERED_HEADING_LEVELS = 3;
export const HEADING_STYLE_IDS = ['Heading1', 'Heading2', 'Heading3', 'Heading4'] as const;

const LIST_STEP = 420; // twips per nesting level: about two CJK characters at 10.5–12 pt
const BULLETS = ['•', '◦', '▪'];
const ORDERED_FORMATS = [LevelFormat.DECIMAL, LevelFormat.LOWER_LETTER, LevelFormat.LOWER_ROMAN];

function headingLevels(style: HeadingNumbering): ILevelsOptions[] {
  const chinese: ILevelsOptions[] = [
    { level: 0, format: LevelFormat.CHINESE_COUNTING, text: '%1、', suffix: LevelSuffix.NOTHING },
    { level: 1, format: LevelFormat.CHINESE_COUNTING, text: '（%2）', suffix: LevelSuffix.NOTHING },
    { level: 2, format: LevelFormat.DECIMAL, text: '%3.', suffix: LevelSuffix.SPACE },
  ];
  const decimal: ILevelsOptions[] = [
    { level: 0, format: LevelFormat.DECIMAL, text: '%1', suffix: LevelSuffix.SPACE },
    { level: 1, format: LevelFormat.DECIMAL, text: '%1.%2', suffix: LevelSuffix.SPACE },
    { level: 2, format: LevelFormat.DECIMAL, text: '%1.%2.%3', suffix: LevelSuffix.SPACE },
  ];
  return (style === 'chinese' ? chinese : decimal).map((level) => ({
    ...level,
    alignment: AlignmentType.LEFT,
    style: {
      style: HEADING_STYLE_IDS[level.level],
      paragraph: { indent: { left: 0, hanging: 0 } },
    },
  }));
}

function listLevels(kind: 'bullet' | 'ordered'): ILevelsOptions[] {
  return Array.from({ length: 9 }, (_, level) => ({
    level,
    format: kind === 'bullet' ? LevelFormat.BULLET : ORDERED_FORMATS[level % ORDERED_FORMATS.length],
    text: kind === 'bullet' ? (BULLETS[level % BULLETS.length] ?? '•') : `%${level + 1}.`,
    alignment: AlignmentType.LEFT,
    style: { paragraph: { indent: { left: LIST_STEP * (level + 1), hanging: LIST_STEP } } },
  }));
}

export function numberingConfig(headings: HeadingNumbering): INumberingOptions {
  return {
    config: [
      { reference: HEADING_NUMBERING, levels: headingLevels(headings) },
      { reference: BULLET_NUMBERING, levels: listLevels('bullet') },
      { reference: ORDERED_NUMBERING, levels: listLevels('ordered') },
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
