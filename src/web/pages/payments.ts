import { DEEP_SIGNAL_CREDIT_PACK, formatMinor } from '../../core/documents/pricing.js';
import { copyBox } from '../copy-box.js';
import { html, type SafeHtml } from '../html.js';
import { layout, type SiteFrame } from '../layout.js';
import type { RevealResult } from '../../payments/checkout.js';

/**
 * The two card-checkout pages, in the website's layout. Every dynamic value goes through the escaping template.
 * Neither is indexed; the success page is never cached (it shows a key once).
 */
const PACK = `${DEEP_SIGNAL_CREDIT_PACK.credits} Deep Signal credits for ${formatMinor(DEEP_SIGNAL_CREDIT_PACK.priceCents)} ${DEEP_SIGNAL_CREDIT_PACK.currency}`;

/** The pages' Content-Security-Policy: the site's, plus Stripe Checkout as the place the purchase form redirects to. */
export const CHECKOUT_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; form-action 'self' https://checkout.stripe.com; base-uri 'none'; frame-ancestors 'none'";

function page(site: SiteFrame, path: string, title: string, body: SafeHtml, head?: SafeHtml): string {
  return layout(site.baseUrl, site.assets, {
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

export interface CreditsPageOptions extends SiteFrame {
  checkoutAvailable: boolean;
  mail: boolean;
  /** OPERATOR_CONTACT: an e-mail address or an https URL; shown only when set. */
  operatorContact?: string | undefined;
  /** Whether x402 pay-per-call and the Solana pack are configured here (each answers 503 otherwise). */
  x402?: boolean;
  solana?: boolean;
}

/** The operator's contact as a link: mailto for an address. */
function contactLink(contact: string): SafeHtml {
  return contact.includes('@') && !contact.startsWith('https://')
    ? html`<a href="mailto:${contact}">${contact}</a>`
    : html`<a href="${contact}" rel="nofollow">${contact}</a>`;
}

/** The ways to pay without a card, each with a request to copy. */
function withoutCard(options: CreditsPageOptions): SafeHtml {
  const base = options.baseUrl;
  const x402 = `curl -i -X POST ${base}/api/agent/deep-signal/x402 \\
  -H 'Content-Type: application/json' -d '{"name":"Zepatra Cloud"}'
# 402: the answer's "accepts" lists network, asset, payTo and price. Sign the
# EIP-3009 transfer with an x402 client, then send the same request with:
#   -H "X-PAYMENT: <base64 payment payload>"`;
  const solana = `curl -s ${base}/api/agent/deep-signal/solana
# Pay the "amount" of the "asset" to "payTo" (memo: as "accepts" says), then:
curl -s -X POST ${base}/api/agent/deep-signal/solana \\
  -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \\
  -d '{"signature":"<transaction signature>"}'`;
  return html`<h2 id="x402">Pay per call with x402</h2>
    ${
      options.x402
        ? html`<p>
              No key and no sign-up: 0.19 USDC per call that finds its startup, nothing for a miss (<a
                href="/docs#tag-paid"
                >reference</a
              >).
            </p>
            ${copyBox(x402, 'the x402 requests', 'Requests', 'copy')}`
        : html`<p class="muted">Not configured on this server.</p>`
    }
    <h2 id="solana">A credit pack paid in Solana USDC</h2>
    ${
      options.solana
        ? html`<p>
              Read the terms, pay, and redeem the transaction signature for the pack's credits on a key (<a
                href="/docs#tag-paid"
                >reference</a
              >).
            </p>
            ${copyBox(solana, 'the Solana requests', 'Requests', 'copy')}`
        : html`<p class="muted">Not configured on this server.</p>`
    }
    ${
      options.operatorContact
        ? html`<h2 id="operator">From the operator</h2>
            <p>
              For a key paid by invoice or bank transfer, write to this server's operator:
              ${contactLink(options.operatorContact)}.
            </p>`
        : ''
    }
    <p>
      <strong>Everything free</strong> needs no key: <a href="/startups">the tracked startups</a>,
      <a href="/ask">answers</a>, <a href="/docs">the API</a>.
    </p>`;
}

export function creditsPage(options: CreditsPageOptions): string {
  const intro = html`<h1>Deep Signal credit pack</h1>
    <p class="lede">
      ${PACK}. A Deep Signal call that matches a tracked startup costs 1 credit; a miss costs nothing; credits do not
      expire.
    </p>
    <p>
      You get an API key: a Bearer token for <code>POST /api/agent/deep-signal</code>,
      <code>GET /api/account/credits</code> and the <code>get_deep_signal</code> agent tool.
    </p>`;
  if (!options.checkoutAvailable) {
    return page(
      options,
      '/agents/credits',
      'Deep Signal credits',
      html`${intro}
        <p class="notice" role="note">
          <strong>Card checkout is unavailable on this server.</strong> Its operator has not configured a payment
          provider, so the pack cannot be bought by card here. The ways below work without a card.
        </p>
        ${withoutCard(options)}`,
    );
  }
  return page(
    options,
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
      </p>
      ${withoutCard(options)}`,
  );
}

function maskEmail(email: string): string {
  const [user = '', domain = ''] = email.split('@');
  return `${user.slice(0, 1)}…@${domain}`;
}

export function successPage(site: SiteFrame, result: RevealResult): string {
  const path = '/agents/credits/success';
  if (result.state === 'pending') {
    return page(
      site,
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
      site,
      path,
      'Key already shown',
      html`<h1>Your key was already shown</h1>
        <p>
          For your safety a key is shown only once.${mailed} If you lost it, contact the operator of this service.
        </p>`,
    );
  }
  return page(
    site,
    path,
    'Your credit-pack key',
    html`<h1>Your credit-pack key</h1>
      <p>${String(result.credits)} credits are ready. Copy your key now: it is shown only this once.${mailed}</p>
      <p><code>${result.key}</code></p>
      <p>Send it as <code>Authorization: Bearer &lt;key&gt;</code>.</p>`,
  );
}
