/**
 * The formats citation-js writes (BibTeX, RIS, and APA, MLA and Chicago through its CSL processor). A module of its
 * own so that citation-js is loaded when the first citation is asked for (GET /api/cite loads it), not at every start.
 */
import { Cite, plugins } from '@citation-js/core';
import '@citation-js/plugin-bibtex';
import '@citation-js/plugin-csl';
import '@citation-js/plugin-ris';
import { CHICAGO_STYLE, MLA_STYLE } from './styles.js';
import { formatWikipedia, type CitationFormat, type CslItem } from './citations.js';

const MLA = 'signal-service-mla';
const CHICAGO = 'signal-service-chicago';
const styles = plugins.config.get('@csl').styles;
if (!styles.has(MLA)) styles.add(MLA, MLA_STYLE);
if (!styles.has(CHICAGO)) styles.add(CHICAGO, CHICAGO_STYLE);

/**
 * citation-js maps the item to RIS tags; the lines are written here because its writer hard-wraps values at 70
 * characters, which its own reader (and others) join back with an extra space.
 */
function formatRis(item: CslItem): string {
  const entries = new Cite([item]).format('ris', { format: 'object' }) as Record<string, unknown>[];
  return entries
    .map((entry) => {
      const lines = [`TY  - ${String(entry.TY)}`];
      for (const [tag, value] of Object.entries(entry)) {
        if (tag === 'TY') continue;
        for (const v of ([] as unknown[]).concat(value))
          lines.push(`${tag}  - ${String(v).replace(/\s+/g, ' ').trim()}`);
      }
      lines.push('ER  - ');
      return lines.join('\n');
    })
    .join('\n\n');
}

/** The citation text of one item in one format, newline-terminated. */
export function formatCitation(item: CslItem, format: CitationFormat): string {
  let text: string;
  switch (format) {
    case 'bibtex':
      text = new Cite([item]).format('bibtex', { format: 'text' }) as string;
      break;
    case 'ris':
      text = formatRis(item);
      break;
    case 'apa':
      text = new Cite([item]).format('bibliography', { format: 'text', template: 'apa', lang: 'en-US' }) as string;
      break;
    case 'mla':
      text = new Cite([item]).format('bibliography', { format: 'text', template: MLA, lang: 'en-US' }) as string;
      break;
    case 'chicago':
      text = new Cite([item]).format('bibliography', { format: 'text', template: CHICAGO, lang: 'en-US' }) as string;
      break;
    case 'wikipedia':
      text = formatWikipedia(item);
      break;
  }
  return `${text.replace(/^\n+/, '').replace(/\n+$/, '')}\n`;
}
