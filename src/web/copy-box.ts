import { html, type SafeHtml } from './html.js';

/**
 * A request to copy: a heading row naming it and the request as a plain `<pre>`, readable and selectable without
 * script. `assets/copy.js` (loaded by every page holding a box) puts a "Copy" button in the heading row, whose height
 * the stylesheet fixes so the button moves nothing. `what` completes the button's name for a screen reader ("Copy
 * the request: GET /api/signals.json").
 */
export function copyBox(code: SafeHtml | string, what: string, heading = 'Request', preClass = 'curl'): SafeHtml {
  return html`<div class="copy-box">
    <div class="copy-head"><span>${heading}</span></div>
    <pre class="${preClass}" data-copy="${what}"><code>${code}</code></pre>
  </div>`;
}
