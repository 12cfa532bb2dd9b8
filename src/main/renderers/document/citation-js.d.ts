// The parts of citation-js Folio uses (the packages ship no types).
declare module '@citation-js/core' {
  export interface CslName {
    family?: string;
    given?: string;
    literal?: string;
  }
  export interface CslItem {
    id: string;
    type: string;
    title?: string;
    author?: CslName[];
    editor?: CslName[];
    'container-title'?: string;
    'event-title'?: string;
    publisher?: string;
    'publisher-place'?: string;
    issued?: { 'date-parts'?: (number | string)[][]; literal?: string };
    accessed?: { 'date-parts'?: (number | string)[][] };
    URL?: string;
    DOI?: string;
    volume?: string | number;
    issue?: string | number;
    page?: string;
    language?: string;
    [field: string]: unknown;
  }
  export class Cite {
    constructor(data: unknown, options?: Record<string, unknown>);
    data: CslItem[];
    format(format: 'bibliography', options: Record<string, unknown>): unknown;
  }
  export const plugins: {
    config: { get(name: string): { templates: { add(name: string, xml: string): void; has(name: string): boolean } } };
  };
}
declare module '@citation-js/plugin-bibtex';
declare module '@citation-js/plugin-csl';
