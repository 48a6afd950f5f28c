import { escapeHtml } from '../core/feed.js';
import { DEEP_SIGNAL_CREDIT_PACK, formatMinor } from '../core/pricing.js';
import type { RevealResult } from './checkout.js';

/**
 * The two card-checkout pages, deliberately plain server-rendered HTML (the website restyles them). Every dynamic
 * value goes through escapeHtml.
 */
const PACK = `${DEEP_SIGNAL_CREDIT_PACK.credits} Deep Signal credits for ${formatMinor(DEEP_SIGNAL_CREDIT_PACK.priceCents)} ${DEEP_SIGNAL_CREDIT_PACK.currency}`;

function page(title: string, body: string, head = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
${head}<title>${escapeHtml(title)}</title>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

export function creditsPage(options: { checkoutAvailable: boolean; mail: boolean }): string {
  const intro = `<h1>Deep Signal credit pack</h1>
<p>${escapeHtml(PACK)}. A Deep Signal call that matches a tracked startup costs 1 credit; a miss costs nothing; credits do not expire.</p>
<p>You get an API key (a Bearer token for <code>POST /api/agent/deep-signal</code> and <code>GET /api/account/credits</code>).</p>`;
  if (!options.checkoutAvailable) {
    return page(
      'Deep Signal credits',
      `${intro}
<p><strong>Card checkout is unavailable on this server.</strong> Its operator has not configured a payment provider; an operator can issue a key with <code>signal-service keys create --credits 100</code>.</p>`,
    );
  }
  return page(
    'Deep Signal credits',
    `${intro}
<form method="post" action="/api/checkout/sessions">
<p><label>E-mail for the key (optional${options.mail ? '' : '; this server does not send e-mail, the key is shown once after payment'}): <input type="email" name="email" maxlength="254" autocomplete="email"></label></p>
<p><button type="submit">Buy ${escapeHtml(PACK)}</button></p>
</form>
<p>Payment is handled by Stripe Checkout. After paying you come back here and see your key once${options.mail ? '; it is also e-mailed to you' : ''}.</p>`,
  );
}

function maskEmail(email: string): string {
  const [user = '', domain = ''] = email.split('@');
  return `${user.slice(0, 1)}…@${domain}`;
}

export function successPage(result: RevealResult): string {
  if (result.state === 'pending') {
    return page(
      'Confirming your payment',
      `<h1>Confirming your payment</h1>
<p>Stripe has not confirmed this payment to us yet. This page reloads every few seconds; your key appears here as soon as the payment is confirmed.</p>`,
      '<meta http-equiv="refresh" content="3">\n',
    );
  }
  const mailed = result.email ? ` It was also e-mailed to ${escapeHtml(maskEmail(result.email))}.` : '';
  if (result.state === 'already-revealed') {
    return page(
      'Key already shown',
      `<h1>Your key was already shown</h1>
<p>For your safety a key is shown only once.${mailed} If you lost it, contact the operator of this service.</p>`,
    );
  }
  return page(
    'Your credit-pack key',
    `<h1>Your credit-pack key</h1>
<p>${escapeHtml(String(result.credits))} credits are ready. Copy your key now: it is shown only this once.${mailed}</p>
<p><code>${escapeHtml(result.key)}</code></p>
<p>Send it as <code>Authorization: Bearer &lt;key&gt;</code>.</p>`,
  );
}
