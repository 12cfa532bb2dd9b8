// The contents' heading numbers as a Chinese typesetter sets them. docx starts a numbered heading's entry with
// its number and a space, as Word writes an entry whose number its list follows with nothing; after a full-width
// mark (（一）, 一、, （1）) that space doubles the blank the mark's own glyph already carries, and reads as a gap.

/** A run docx writes for an entry's number: the number, ending in a full-width closing mark, and one space. */
const NUMBER_THEN_SPACE = /(<w:t xml:space="preserve">[^<\s]*[）〕】」』、])\u0020(<\/w:t>)/gu;
const CONTENTS = /<w:sdt>(?:(?!<\/w:sdt>)[\s\S])*?<w:docPartGallery w:val="Table of Contents"\/>[\s\S]*?<\/w:sdt>/gu;

/** document.xml with no space after a full-width mark ending a contents entry's number. */
export function withTightContentsNumbers(documentXml: string): string {
  return documentXml.replace(CONTENTS, (contents) => contents.replace(NUMBER_THEN_SPACE, '$1$2'));
}
