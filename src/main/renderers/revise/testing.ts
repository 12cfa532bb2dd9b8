// Test support: small .docx packages written by hand, so each test controls exactly how Word would
// have split the text into runs, and the text a revised document reads as when its changes are
// accepted or rejected.
import JSZip from 'jszip';
import { DOMParser, type Element, type Node } from '@xmldom/xmldom';

export const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

export interface FixtureParts {
  body: string;
  footnotes?: string;
  header?: string;
  footer?: string;
  /** `<w:comment>` elements of an existing comments part; absent: the document has none. */
  comments?: string;
}

const NS = `xmlns:w="${W}" xmlns:r="${R}"`;
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n';

export async function makeDocx(parts: FixtureParts): Promise<Uint8Array> {
  const zip = new JSZip();
  const overrides = [
    '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>',
    '<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>',
  ];
  const rels = [`<Relationship Id="rId1" Type="${R}/styles" Target="styles.xml"/>`];
  const sect: string[] = [];
  if (parts.footnotes !== undefined) {
    overrides.push('<Override PartName="/word/footnotes.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"/>');
    rels.push(`<Relationship Id="rId2" Type="${R}/footnotes" Target="footnotes.xml"/>`);
    zip.file(
      'word/footnotes.xml',
      `${XML_HEAD}<w:footnotes ${NS}><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote><w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:footnote>${parts.footnotes}</w:footnotes>`,
    );
  }
  if (parts.header !== undefined) {
    overrides.push('<Override PartName="/word/header1.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"/>');
    rels.push(`<Relationship Id="rId3" Type="${R}/header" Target="header1.xml"/>`);
    zip.file('word/header1.xml', `${XML_HEAD}<w:hdr ${NS}>${parts.header}</w:hdr>`);
    sect.push('<w:headerReference w:type="default" r:id="rId3"/>');
  }
  if (parts.footer !== undefined) {
    overrides.push('<Override PartName="/word/footer1.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footer+xml"/>');
    rels.push(`<Relationship Id="rId4" Type="${R}/footer" Target="footer1.xml"/>`);
    zip.file('word/footer1.xml', `${XML_HEAD}<w:ftr ${NS}>${parts.footer}</w:ftr>`);
    sect.push('<w:footerReference w:type="default" r:id="rId4"/>');
  }
  if (parts.comments !== undefined) {
    overrides.push('<Override PartName="/word/comments.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml"/>');
    rels.push(`<Relationship Id="rId5" Type="${R}/comments" Target="comments.xml"/>`);
    zip.file('word/comments.xml', `${XML_HEAD}<w:comments ${NS}>${parts.comments}</w:comments>`);
  }
  zip.file(
    '[Content_Types].xml',
    `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${overrides.join('')}</Types>`,
  );
  zip.file('_rels/.rels', `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${R}/officeDocument" Target="word/document.xml"/></Relationships>`);
  zip.file('word/_rels/document.xml.rels', `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels.join('')}</Relationships>`);
  zip.file('word/styles.xml', `${XML_HEAD}<w:styles ${NS}><w:docDefaults><w:rPrDefault><w:rPr><w:sz w:val="24"/></w:rPr></w:rPrDefault></w:docDefaults></w:styles>`);
  zip.file(
    'word/document.xml',
    `${XML_HEAD}<w:document ${NS}><w:body>${parts.body}<w:sectPr>${sect.join('')}<w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:body></w:document>`,
  );
  return zip.generateAsync({ type: 'uint8array' });
}

/** A paragraph of plain runs, one per string. */
export function para(...runs: string[]): string {
  return `<w:p>${runs.map((t) => `<w:r><w:t xml:space="preserve">${t}</w:t></w:r>`).join('')}</w:p>`;
}

/**
 * The paragraphs' text as Word shows it after accepting every change (`accept`) or rejecting every
 * change (`reject`): w:ins kept or dropped, w:del text dropped or restored, deleted paragraph marks joined.
 */
export function readBack(xml: string, mode: 'accept' | 'reject'): string[] {
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const out: string[] = [];
  let joinNext = false;
  const paragraphs = Array.from(doc.getElementsByTagNameNS(W, 'p'));
  for (const p of paragraphs) {
    let text = '';
    const walk = (node: Node): void => {
      for (let c = node.firstChild; c; c = c.nextSibling) {
        if (c.nodeType !== 1) continue;
        const el = c as Element;
        const name = el.localName;
        if (name === 'pPr') continue;
        if (name === 'ins' && mode === 'reject') continue;
        if (name === 'del' && mode === 'accept') continue;
        if (name === 't' || name === 'delText') text += el.textContent ?? '';
        else if (name === 'tab') text += '\t';
        else walk(el);
      }
    };
    walk(p);
    const markDeleted = Array.from(p.getElementsByTagNameNS(W, 'pPr')).some((pPr) =>
      Array.from(pPr.getElementsByTagNameNS(W, 'del')).length > 0,
    );
    if (joinNext && out.length > 0) out[out.length - 1] += text;
    else out.push(text);
    joinNext = markDeleted && mode === 'accept';
  }
  return out;
}
