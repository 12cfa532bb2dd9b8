// What a Chinese screen must not show: a sentence in English. The check reads the text a person sees in
// rendered HTML (tags and their attributes removed) or in a terminal, and finds runs of four or more
// Latin words; a file name, a model name or a unit stays under that.

const ENTITIES: Record<string, string> = { '&quot;': '"', '&#x27;': "'", '&#39;': "'", '&amp;': '&', '&lt;': '<', '&gt;': '>', '&nbsp;': ' ' };

export function visibleText(html: string): string {
  return html.replace(/<[^>]*>/gu, ' ').replace(/&(?:quot|#x27|#39|amp|lt|gt|nbsp);/gu, (e) => ENTITIES[e] ?? e);
}

/** The English sentences (four or more Latin words in a row) in the text of `html`. */
export function latinSentences(html: string): string[] {
  return visibleText(html).match(/[A-Za-z][A-Za-z'’]*(?:[\s,;:()"“”-]+[A-Za-z][A-Za-z'’]*){3,}/gu) ?? [];
}
