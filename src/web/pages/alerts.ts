import { sectors } from '../../domain/sectors.js';
import type { AlertDelivery, AlertSubscription, AlertWatch } from '../../schemas/alerts.js';
import { SIGNAL_TYPES } from '../../schemas/enums.js';
import { html, type SafeHtml } from '../html.js';
import { layout, type SiteFrame } from '../layout.js';

/**
 * The alerts pages: a key holder manages subscriptions with plain forms (no script, no session: each form carries
 * the key, which is sent back only to its holder, in a page that is never cached), and anyone with an e-mail
 * digest's link stops the digest. Every value goes through the escaping template.
 */
const DESCRIPTION =
  'Alerts: a webhook, an e-mail digest or an Atom feed when a watched startup enters or leaves the trending top 20, changes signal type or crosses a threshold.';

function page(site: SiteFrame, path: string, title: string, body: SafeHtml): string {
  return layout(site.baseUrl, site.assets, {
    path,
    title,
    description: DESCRIPTION,
    body,
    synthetic: false,
    section: 'docs',
    noindex: true,
  });
}

function watchText(watch: AlertWatch): string {
  const parts: string[] = [];
  if (watch.startups?.length) parts.push(`startups: ${watch.startups.join(', ')}`);
  if (watch.sectors?.length) parts.push(`sectors: ${watch.sectors.join(', ')}`);
  if (watch.signalTypes?.length) parts.push(`signal types: ${watch.signalTypes.join(', ')}`);
  if (watch.trendingTop20) parts.push('any startup entering the trending top 20');
  if (watch.thresholds?.commitVelocityChange !== undefined)
    parts.push(`commit velocity change crossing ${watch.thresholds.commitVelocityChange}%`);
  if (watch.thresholds?.contributorGrowth !== undefined)
    parts.push(`contributor growth crossing ${watch.thresholds.contributorGrowth}%`);
  return parts.join('; ');
}

const keyField = (key: string) => html`<input type="hidden" name="key" value="${key}" />`;

function subscriptionRow(key: string, s: AlertSubscription, log: readonly AlertDelivery[] | undefined): SafeHtml {
  const delivered = log?.filter((d) => d.status === 'delivered').length ?? 0;
  const pending = log?.filter((d) => d.status === 'pending').length ?? 0;
  const failed = log?.filter((d) => d.status === 'failed').length ?? 0;
  return html`<tr>
    <td><strong>${s.label ?? s.id}</strong><br /><code>${s.id}</code></td>
    <td>${watchText(s.watch)}</td>
    <td>
      ${s.webhookUrl ? html`Webhook: <code>${s.webhookUrl}</code><br />` : ''}
      ${s.email ? html`E-mail: ${s.email}<br />` : ''}
      <a href="${s.feedUrl}">Atom feed</a>
    </td>
    <td>${delivered} delivered, ${pending} pending, ${failed} failed</td>
    <td>
      <form method="post" action="/alerts">
        ${keyField(key)}<input type="hidden" name="action" value="delete" />
        <input type="hidden" name="id" value="${s.id}" />
        <button type="submit" class="danger">Delete</button>
      </form>
    </td>
  </tr>`;
}

function createForm(key: string, mail: boolean): SafeHtml {
  return html`<h2>New subscription</h2>
    <form method="post" action="/alerts">
      ${keyField(key)}<input type="hidden" name="action" value="create" />
      <p>
        <label>Label <input name="label" maxlength="100" /></label>
      </p>
      <p>
        <label
          >Startups (names or GitHub organisations, separated by commas)
          <input name="startups" maxlength="4000" size="60"
        /></label>
      </p>
      <fieldset>
        <legend>Sectors</legend>
        <div class="choices">
          ${sectors.map(
            (s) => html`<label><input type="checkbox" name="sectors" value="${s.slug}" /> ${s.name}</label>`,
          )}
        </div>
      </fieldset>
      <fieldset>
        <legend>Signal types</legend>
        <div class="choices">
          ${SIGNAL_TYPES.map((t) => html`<label><input type="checkbox" name="signalTypes" value="${t}" /> ${t}</label>`)}
        </div>
      </fieldset>
      <p class="choices">
        <label
          ><input type="checkbox" name="trendingTop20" value="on" /> Any startup entering the trending top 20</label
        >
      </p>
      <p>
        <label
          >Commit velocity change threshold, % <input name="commitVelocityChange" inputmode="numeric" size="6"
        /></label>
        <label>Contributor growth threshold, % <input name="contributorGrowth" inputmode="numeric" size="6" /></label>
      </p>
      <p>
        <label>Webhook URL <input name="webhookUrl" type="url" maxlength="2048" size="60" /></label>
      </p>
      ${
        mail
          ? html`<p>
              <label>E-mail address (one digest per period) <input name="email" type="email" maxlength="254" /></label>
            </p>`
          : html`<p>This server sends no e-mail; use a webhook or the Atom feed.</p>`
      }
      <p><button type="submit">Create</button></p>
    </form>`;
}

export interface AlertsPageInput extends SiteFrame {
  /** False when alerts are off on this server. */
  available: boolean;
  mail: boolean;
  /** The key, once the holder gave it; the start page asks for it. */
  key?: string;
  subscriptions?: readonly { subscription: AlertSubscription; log: readonly AlertDelivery[] | undefined }[];
  /** A problem to show (a refused URL, a bad key). */
  error?: string;
  /** Just created: its webhook secret, shown this once. */
  created?: { subscription: AlertSubscription; webhookSecret: string | null; names?: readonly string[] };
  deleted?: string;
}

export function alertsPage(input: AlertsPageInput): string {
  const intro = html`<h1>Alerts</h1>
    <p class="lede">
      Watch startups, sectors or signal types, or every startup entering the trending top 20. When a period is
      published, each change is sent to your webhook (signed, Standard Webhooks),
      ${input.mail ? 'in one e-mail digest, ' : ''}and to the subscription's Atom feed. Managing subscriptions needs a
      credit-pack key and spends no credit. The API: <a href="/docs#tag-alerts">/api/alerts/subscriptions</a>.
    </p>`;
  if (!input.available) {
    return page(
      input,
      '/alerts',
      'Alerts',
      html`${intro}
        <p class="notice" role="note">
          <strong>Alerts are off on this server.</strong> Its operator has not set ALERTS_SECRET.
        </p>`,
    );
  }
  const error = input.error ? html`<p class="notice danger" role="alert"><strong>${input.error}</strong></p>` : '';
  if (!input.key) {
    return page(
      input,
      '/alerts',
      'Alerts',
      html`${intro} ${error}
        <form method="post" action="/alerts">
          <input type="hidden" name="action" value="list" />
          <p>
            <label
              >Your credit-pack key <input name="key" type="password" autocomplete="off" required size="50"
            /></label>
            <button type="submit">Show my subscriptions</button>
          </p>
        </form>
        <p>No key yet? <a href="/agents/credits">Get a credit pack</a>.</p>`,
    );
  }
  const created = input.created
    ? html`<div class="notice success" role="status">
        <p>
          <strong>Subscription ${input.created.subscription.label ?? input.created.subscription.id} created.</strong>
          ${input.created.names?.length ? html`You are watching ${input.created.names.join(', ')}.` : ''}
        </p>
        ${
          input.created.webhookSecret
            ? html`<p>
                Webhook signing secret (shown this once; keep it to verify signatures):
                <code>${input.created.webhookSecret}</code>
              </p>`
            : ''
        }
      </div>`
    : '';
  const deleted = input.deleted
    ? html`<p class="notice success" role="status">Subscription ${input.deleted} deleted.</p>`
    : '';
  const list = input.subscriptions ?? [];
  return page(
    input,
    '/alerts',
    'Alerts',
    html`${intro} ${error} ${created} ${deleted}
      <h2>Your subscriptions</h2>
      ${
        list.length === 0
          ? html`<p>None yet.</p>`
          : html`<table class="stack">
              <thead>
                <tr>
                  <th scope="col">Subscription</th>
                  <th scope="col">Watches</th>
                  <th scope="col">Delivery</th>
                  <th scope="col">Deliveries</th>
                  <th scope="col"></th>
                </tr>
              </thead>
              <tbody>
                ${list.map((s) => subscriptionRow(input.key!, s.subscription, s.log))}
              </tbody>
            </table>`
      }
      ${createForm(input.key, input.mail)}`,
  );
}

export type UnsubscribeState =
  | { state: 'confirm'; token: string; label: string | null; email: string | null }
  | { state: 'done'; label: string | null }
  | { state: 'invalid' };

/** The unsubscribe page: a confirmation button (a link alone must not unsubscribe: mail scanners open links). */
export function unsubscribePage(site: SiteFrame, input: UnsubscribeState): string {
  const body =
    input.state === 'invalid'
      ? html`<h1>Unsubscribe</h1>
          <p>This unsubscribe link is not valid, or its subscription was deleted.</p>`
      : input.state === 'done'
        ? html`<h1>Unsubscribed</h1>
            <p>
              You will get no more alert digests for ${input.label ? html`"${input.label}"` : 'this subscription'}. Its
              webhook and Atom feed, if any, are unchanged.
            </p>`
        : html`<h1>Unsubscribe</h1>
            <p>
              Stop the alert digest e-mails${input.email ? html` to ${input.email}` : ''} for
              ${input.label ? html`"${input.label}"` : 'this subscription'}?
            </p>
            <form method="post" action="/alerts/unsubscribe">
              <input type="hidden" name="token" value="${input.token}" />
              <button type="submit">Unsubscribe</button>
            </form>`;
  return page(site, '/alerts/unsubscribe', 'Unsubscribe', body);
}
