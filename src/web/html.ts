import { escapeHtml } from '../core/documents/feed.js';

/**
 * Markup that is already safe to place in a page. Only `html` and `raw` make one, so any other string that reaches
 * a template is text and gets escaped: a page cannot forget to escape a user-controlled value.
 */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false || value === true) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/** Tagged template: interpolated values are escaped unless they are SafeHtml; arrays are concatenated. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new SafeHtml(out);
}

/** Trusted markup (rendered Markdown of our own content, SVG we built): the caller vouches for it. */
export function raw(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

/** JSON for a `<script type="application/ld+json">` block: `<` escaped so the data cannot close the element. */
export function jsonLdScript(data: unknown): SafeHtml {
  const json = JSON.stringify(data).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
  return raw(`<script type="application/ld+json">${json}</script>`);
}
