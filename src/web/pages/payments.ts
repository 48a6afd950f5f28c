import { DEEP_SIGNAL_CREDIT_PACK, formatMinor } from '../../core/documents/pricing.js';
import { loadSiteAssets } from '../assets.js';
import { html, type SafeHtml } from '../html.js';
import { layout } from '../layout.js';
import type { RevealResult } from '../../payments/checkout.js';

/**
 * The two card-checkout pages, in the website's layout. Every dynamic value goes through the escaping template.
 * Neither is indexed; the success page is never cached (it shows a key once).
 */
const PACK = `${DEEP_SIGNAL_CREDIT_PACK.credits} Deep Signal credits for ${formatMinor(DEEP_SIGNAL_CREDIT_PACK.priceCents)} ${DEEP_SIGNAL_CREDIT_PACK.currency}`;

/** The pages' Content-Security-Policy: the site's, plus Stripe Checkout as the place the purchase form redirects to. */
export const CHECKOUT_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; form-action 'self' https://checkout.stripe.com; base-uri 'none'; frame-ancestors 'none'";

function page(baseUrl: string, path: string, title: string, body: SafeHtml, head?: SafeHtml): string {
  return layout(baseUrl, loadSiteAssets(), {
    path,
    title,
    description: PACK,
    body,
    synthetic: false,
    section: 'pricing',
    noindex: true,
    ...(head ? { head } : {}),
  });
}

export function creditsPage(options: { baseUrl: string; checkoutAvailable: boolean; mail: boolean }): string {
  const intro = html`<h1>Deep Signal credit pack</h1>
    <p class="lede">
      ${PACK}. A Deep Signal call that matches a tracked startup costs 1 credit; a miss costs nothing; credits do not
      expire.
    </p>
    <p>
      You get an API key: a Bearer token for <code>POST /api/agent/deep-signal</code>,
      <code>GET /api/account/credits</code> and the <code>get_deep_signal</code> agent tool. Prefer crypto? See
      <a href="/pricing">pricing</a> for x402 pay-per-call and Solana packs.
    </p>`;
  if (!options.checkoutAvailable) {
    return page(
      options.baseUrl,
      '/agents/credits',
      'Deep Signal credits',
      html`${intro}
        <p class="notice" role="note">
          <strong>Card checkout is unavailable on this server.</strong> Its operator has not configured a payment
          provider, so the pack cannot be bought by card here.
        </p>
        <h2>What works instead</h2>
        <ul>
          <li>
            <strong>Pay per call with x402</strong>: no key and no sign-up; call
            <code>POST /api/agent/deep-signal/x402</code>, get the payment requirements in the 402 answer and retry with
            a signed <code>X-PAYMENT</code> header (<a href="/docs#tag-paid">reference</a>).
          </li>
          <li>
            <strong>A Solana credit pack</strong>: send the stablecoin and redeem the transaction signature at
            <code>/api/agent/deep-signal/solana</code> (<a href="/pricing">prices</a>).
          </li>
          <li>
            <strong>Ask the operator</strong> of this server for a key: they can issue one with
            <code>signal-service keys create --credits 100</code>.
          </li>
          <li>
            <strong>Everything free</strong> needs no key: <a href="/startups">the tracked startups</a>,
            <a href="/ask">answers</a>, <a href="/docs">the API</a>.
          </li>
        </ul>`,
    );
  }
  return page(
    options.baseUrl,
    '/agents/credits',
    'Deep Signal credits',
    html`${intro}
      <form method="post" action="/api/checkout/sessions">
        <p>
          <label for="email"
            >E-mail for the key
            (optional${options.mail ? '' : '; this server does not send e-mail, the key is shown once after payment'})</label
          ><br />
          <input id="email" type="email" name="email" maxlength="254" autocomplete="email" />
        </p>
        <p><button type="submit">Buy ${PACK}</button></p>
      </form>
      <p>
        Payment is handled by Stripe Checkout. After paying you come back here and see your key
        once${options.mail ? '; it is also e-mailed to you' : ''}.
      </p>`,
  );
}

function maskEmail(email: string): string {
  const [user = '', domain = ''] = email.split('@');
  return `${user.slice(0, 1)}…@${domain}`;
}

export function successPage(baseUrl: string, result: RevealResult): string {
  const path = '/agents/credits/success';
  if (result.state === 'pending') {
    return page(
      baseUrl,
      path,
      'Confirming your payment',
      html`<h1>Confirming your payment</h1>
        <p>
          Stripe has not confirmed this payment to us yet. This page reloads every few seconds; your key appears here as
          soon as the payment is confirmed.
        </p>`,
      html`<meta http-equiv="refresh" content="3" />`,
    );
  }
  const mailed = result.email ? ` It was also e-mailed to ${maskEmail(result.email)}.` : '';
  if (result.state === 'already-revealed') {
    return page(
      baseUrl,
      path,
      'Key already shown',
      html`<h1>Your key was already shown</h1>
        <p>
          For your safety a key is shown only once.${mailed} If you lost it, contact the operator of this service.
        </p>`,
    );
  }
  return page(
    baseUrl,
    path,
    'Your credit-pack key',
    html`<h1>Your credit-pack key</h1>
      <p>${String(result.credits)} credits are ready. Copy your key now: it is shown only this once.${mailed}</p>
      <p><code>${result.key}</code></p>
      <p>Send it as <code>Authorization: Bearer &lt;key&gt;</code>.</p>`,
  );
}
