import { methodologyIntro, methodologySteps } from '../../content/methodology.js';
import type { Methodology } from '../../schemas/documents.js';
import { DATA_LICENSE, INTERFACE_VERSION } from '../../domain/license.js';
import { siteUrls } from '../../domain/urls.js';

/**
 * Two renderings of the one methodology (src/content/methodology.ts): the schema.org HowTo served at
 * GET /api/v1/methodology.json and the Markdown committed as docs/methodology.md.
 */
export const METHODOLOGY_NAME = 'How Signal Service measures startup engineering acceleration';

export function buildMethodology(baseUrl: string): Methodology {
  const urls = siteUrls(baseUrl);
  return {
    '@context': 'https://schema.org',
    '@type': 'HowTo',
    name: METHODOLOGY_NAME,
    description: methodologyIntro,
    url: urls.methodology(),
    inLanguage: 'en',
    version: INTERFACE_VERSION,
    license: DATA_LICENSE.url,
    step: methodologySteps.map((step, i) => ({
      '@type': 'HowToStep',
      position: i + 1,
      name: step.name,
      headline: step.title,
      text: step.text,
      url: `${urls.methodology()}#${step.name}`,
      formulas: [...step.formulas],
      code: [...step.code],
    })),
  };
}

/** docs/methodology.md, byte for byte (scripts/methodology-doc.ts writes it; a test checks it is current). */
export function renderMethodologyMarkdown(): string {
  const lines = [
    `# ${METHODOLOGY_NAME}`,
    '',
    '<!-- Generated from src/content/methodology.ts by `npx tsx scripts/methodology-doc.ts`; do not edit by hand. -->',
    '',
    methodologyIntro,
    '',
    `The pipeline has ${methodologySteps.length} stages: ${methodologySteps.map((s) => s.name).join(' → ')}.`,
    'The same text is served as a schema.org HowTo at `GET /api/v1/methodology.json`.',
  ];
  methodologySteps.forEach((step, i) => {
    lines.push('', `## ${i + 1}. ${step.name}: ${step.title}`, '', step.text);
    if (step.formulas.length > 0) {
      lines.push('', '```text', ...step.formulas, '```');
    }
    lines.push('', `Code: ${step.code.map((c) => `\`${c}\``).join(', ')}`);
  });
  lines.push('', `Data licence: ${DATA_LICENSE.terms}`, '');
  return lines.join('\n');
}
