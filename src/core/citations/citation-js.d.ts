/** The parts of citation-js this service uses (the packages ship no type declarations). */
declare module '@citation-js/core' {
  export class Cite {
    constructor(data: unknown, options?: Record<string, unknown>);
    data: Record<string, unknown>[];
    format(format: string, options?: Record<string, unknown>): unknown;
  }
  export const plugins: {
    config: { get(name: string): { styles: { add(name: string, style: string): void; has(name: string): boolean } } };
  };
}
declare module '@citation-js/plugin-bibtex';
declare module '@citation-js/plugin-ris';
declare module '@citation-js/plugin-csl';
