import type { FastifyContextConfig, FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AlertsService } from '../../core/alerts/service.js';
import { ServiceError, type Outcome } from '../../domain/errors.js';
import { authenticateKey } from '../../payments/authenticate.js';
import {
  AlertDeliveryList,
  AlertSubscription,
  AlertSubscriptionList,
  AlertSubscriptionRequest,
  CreatedAlertSubscription,
} from '../../schemas/alerts.js';
import type { SiteAssets } from '../../web/assets.js';
import { alertsPage, unsubscribePage, type AlertsPageInput } from '../../web/pages/alerts.js';
import type { AppContext } from '../context.js';
import { CREDIT_KEY_SECURITY, creditAccountOf, creditKeyHook } from '../credit-key.js';
import { errorResponses, textContent } from '../openapi.js';
import { HTML_CSP } from './site.js';
import type { Snapshot } from '../../snapshot/snapshot.js';
import { resolveWatched, untrackedSentence } from '../../core/alerts/tracked.js';

/**
 * Alerts (docs/alerts.md): the subscriptions API for credit-pack key holders (no credit spent), each
 * subscription's Atom feed (its own token, no key), the e-mail digest's unsubscribe page (a signed token, no key),
 * and the website's page for managing subscriptions with forms. Rules live in src/core/alerts/.
 */
const HTML = 'text/html; charset=utf-8';
const PAID_ROUTE = { rateLimit: 'paid' } as unknown as FastifyContextConfig;

const SubscriptionId = z.object({
  id: z
    .string()
    .regex(/^sub_[0-9a-f]{20}$/, 'must be a subscription id (sub_ and 20 hex digits)')
    .describe('The subscription id.'),
});

function service(ctx: AppContext): AlertsService {
  const alerts = ctx.services.alerts;
  if (!alerts) throw new ServiceError('alerts-off', {}, { retryAfterSeconds: 3600 });
  return alerts;
}

function value<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}

type Form = Record<string, string | string[]>;

function formOf(body: string): Form {
  const form: Form = {};
  for (const [name, v] of new URLSearchParams(body)) {
    const had = form[name];
    form[name] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
  }
  return form;
}

const one = (form: Form, name: string): string => {
  const v = form[name];
  return (Array.isArray(v) ? v[0] : v)?.trim() ?? '';
};
const many = (form: Form, name: string): string[] => {
  const v = form[name];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
};

/**
 * The form's startups, one per comma or line (a name has spaces: "Zepatra Cloud" is one startup, not two), each
 * resolved by the strict name rule the API uses (src/core/alerts/tracked.ts): the tracked organisations, or the first
 * entry that is not one, with its near names.
 */
export function resolveWatchedStartups(
  snapshot: Snapshot | undefined,
  text: string,
  baseUrl = '',
): { ok: true; logins: string[]; names: string[] } | { ok: false; problem: string } {
  const entries = text
    .split(/[,\n]+/)
    .map((e) => e.trim())
    .filter(Boolean);
  const resolved = resolveWatched(snapshot, baseUrl, entries);
  if (resolved.ok)
    return { ok: true, logins: resolved.startups.map((s) => s.org), names: resolved.startups.map((s) => s.name) };
  if (resolved.reason === 'no-period' && entries.length === 0) return { ok: true, logins: [], names: [] };
  return {
    ok: false,
    problem:
      resolved.reason === 'untracked'
        ? `Not created. Startups: ${untrackedSentence(resolved.entry, resolved.candidates)}`
        : 'Not created. Startups: no period is loaded yet, so the tracked startups are not known; try again in a minute.',
  };
}

/** The website's create form as the API's request (validated by the same schema); `startups` already resolved. */
function requestOfForm(form: Form, startups: readonly string[]): z.ZodSafeParseResult<AlertSubscriptionRequest> {
  const int = (name: string) => (one(form, name) === '' ? undefined : Number(one(form, name)));
  const thresholds = { commitVelocityChange: int('commitVelocityChange'), contributorGrowth: int('contributorGrowth') };
  return AlertSubscriptionRequest.safeParse({
    ...(one(form, 'label') ? { label: one(form, 'label') } : {}),
    watch: {
      ...(startups.length ? { startups } : {}),
      ...(many(form, 'sectors').length ? { sectors: many(form, 'sectors') } : {}),
      ...(many(form, 'signalTypes').length ? { signalTypes: many(form, 'signalTypes') } : {}),
      ...(one(form, 'trendingTop20') ? { trendingTop20: true } : {}),
      ...(thresholds.commitVelocityChange !== undefined || thresholds.contributorGrowth !== undefined
        ? {
            thresholds: Object.fromEntries(Object.entries(thresholds).filter(([, v]) => v !== undefined)),
          }
        : {}),
    },
    ...(one(form, 'webhookUrl') ? { webhookUrl: one(form, 'webhookUrl') } : {}),
    ...(one(form, 'email') ? { email: one(form, 'email') } : {}),
  });
}

/** The form's own words for each field, so a refusal names what the person filled in, not the API's field path. */
const FIELD_WORDS: Record<string, string> = {
  label: 'Label',
  startups: 'Startups',
  sectors: 'Sectors',
  signalTypes: 'Signal types',
  trendingTop20: 'Trending top 20',
  commitVelocityChange: 'Commit velocity change threshold',
  contributorGrowth: 'Contributor growth threshold',
  webhookUrl: 'Webhook URL',
  email: 'E-mail address',
  watch: 'What to watch',
};

/** A refused form in plain words: the field's label and the rule it broke. */
export function formProblem(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return 'Not created: the form could not be read.';
  const field = [...issue.path].reverse().find((p) => typeof p === 'string' && p in FIELD_WORDS) as string | undefined;
  const message = issue.message.replace(/^Invalid input: /, '');
  return `Not created. ${field ? `${FIELD_WORDS[field]}: ` : ''}${message.charAt(0).toUpperCase()}${message.slice(1)}`;
}

export async function alertsRoutes(app: FastifyInstance, ctx: AppContext, assets: SiteAssets): Promise<void> {
  const authenticate = creditKeyHook(ctx);
  const baseUrl = ctx.urls.base;
  const site = { baseUrl, assets };

  // Own scope: the pages' form bodies are parsed here only.
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, formOf(body as string));
    });
    const r = scope.withTypeProvider<ZodTypeProvider>();

    r.post(
      '/api/alerts/subscriptions',
      {
        config: PAID_ROUTE,
        onRequest: authenticate,
        schema: {
          summary: 'Create an alert subscription (no credit spent)',
          description:
            "What to watch (startups, sectors, signal types, or any startup entering the trending top 20, with optional thresholds) and where to deliver: a webhook URL (signed POSTs, Standard Webhooks), an e-mail address (one digest per period), both, or neither (the Atom feed in `feedUrl` always works). The answer confirms what is watched (`watching`: each startup by name; `confirmation`: one sentence) and carries the webhook's `whsec_` signing secret, shown only here. 400: the body is invalid or watches nothing; 422: an entry of watch.startups is not a startup this service tracks (the problem names it, with `candidates` when a name is close), the webhook URL resolves to a private, loopback or link-local address (unless the operator allows them) or does not resolve, or an e-mail address was given on a server without SMTP; 409: the account holds the maximum of 50 subscriptions; 503: alerts are off on this server.",
          tags: ['alerts'],
          operationId: 'postAlertSubscription',
          security: CREDIT_KEY_SECURITY,
          body: AlertSubscriptionRequest,
          response: {
            201: {
              description: 'The subscription, with its webhook secret (shown once). Location names it.',
              content: { 'application/json': { schema: CreatedAlertSubscription } },
            },
            ...errorResponses(400, 401, 409, 415, 422, 429, 503),
          },
        },
      },
      async (request, reply) => {
        const created = value(await service(ctx).create(creditAccountOf(request).id, request.body));
        return (reply as FastifyReply)
          .code(201)
          .header('location', `/api/alerts/subscriptions/${created.id}`)
          .send(created);
      },
    );

    r.get(
      '/api/alerts/subscriptions',
      {
        config: PAID_ROUTE,
        onRequest: authenticate,
        schema: {
          summary: "The key's alert subscriptions",
          tags: ['alerts'],
          operationId: 'listAlertSubscriptions',
          security: CREDIT_KEY_SECURITY,
          response: {
            200: {
              description: "Every subscription of the key's account, oldest first.",
              content: { 'application/json': { schema: AlertSubscriptionList } },
            },
            ...errorResponses(401, 429, 503),
          },
        },
      },
      async (request) => ({ subscriptions: await service(ctx).list(creditAccountOf(request).id) }),
    );

    r.get(
      '/api/alerts/subscriptions/:id',
      {
        config: PAID_ROUTE,
        onRequest: authenticate,
        schema: {
          summary: 'One alert subscription',
          tags: ['alerts'],
          operationId: 'getAlertSubscription',
          security: CREDIT_KEY_SECURITY,
          params: SubscriptionId,
          response: {
            200: { description: 'The subscription.', content: { 'application/json': { schema: AlertSubscription } } },
            ...errorResponses(400, 401, 404, 429, 503),
          },
        },
      },
      async (request) => value(await service(ctx).get(creditAccountOf(request).id, request.params.id)),
    );

    r.delete(
      '/api/alerts/subscriptions/:id',
      {
        config: PAID_ROUTE,
        onRequest: authenticate,
        schema: {
          summary: 'Delete an alert subscription',
          description: 'Deletes it with its events and delivery log; pending deliveries are not sent.',
          tags: ['alerts'],
          operationId: 'deleteAlertSubscription',
          security: CREDIT_KEY_SECURITY,
          params: SubscriptionId,
          response: {
            204: z.null().describe('Deleted.'),
            ...errorResponses(400, 401, 404, 429, 503),
          },
        },
      },
      async (request, reply) => {
        value(await service(ctx).delete(creditAccountOf(request).id, request.params.id));
        return (reply as FastifyReply).code(204).send();
      },
    );

    r.get(
      '/api/alerts/subscriptions/:id/deliveries',
      {
        config: PAID_ROUTE,
        onRequest: authenticate,
        schema: {
          summary: "A subscription's delivery log",
          description:
            'Newest first, at most 100: one entry per webhook delivery (one per event: attempts, last HTTP status and error, next attempt) and per e-mail digest (one per period).',
          tags: ['alerts'],
          operationId: 'getAlertDeliveries',
          security: CREDIT_KEY_SECURITY,
          params: SubscriptionId,
          response: {
            200: { description: 'The log.', content: { 'application/json': { schema: AlertDeliveryList } } },
            ...errorResponses(400, 401, 404, 429, 503),
          },
        },
      },
      async (request) => ({
        deliveries: value(await service(ctx).deliveries(creditAccountOf(request).id, request.params.id)),
      }),
    );

    r.get(
      '/api/alerts/subscriptions/:id/feed.atom',
      {
        schema: {
          summary: "A subscription's events as an Atom feed",
          description:
            "Newest first, at most 100 entries. Read with the `token` of the subscription's `feedUrl` (no key, so any feed reader can); a wrong token is a 404.",
          tags: ['alerts'],
          operationId: 'getAlertFeed',
          params: SubscriptionId,
          querystring: z.object({
            token: z.string().max(100).optional().describe("The token of the subscription's feedUrl."),
          }),
          response: {
            200: textContent('application/atom+xml', 'The Atom 1.0 feed.'),
            ...errorResponses(400, 404, 429, 503),
          },
        },
      },
      async (request, reply) => {
        const atom = value(await service(ctx).feed(request.params.id, request.query.token));
        return (reply as FastifyReply)
          .header('content-type', 'application/atom+xml; charset=utf-8')
          .header('cache-control', 'private, no-cache')
          .send(atom);
      },
    );

    const sendHtml = (reply: FastifyReply, body: string, status = 200) =>
      reply
        .code(status)
        .header('content-type', HTML)
        .header('content-security-policy', HTML_CSP)
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .send(body);

    const Token = z.string().max(200).describe("The token of the digest's unsubscribe link.");

    r.get(
      '/alerts/unsubscribe',
      {
        schema: {
          summary: 'The unsubscribe page of an alert digest (HTML)',
          description:
            'Shows what the token unsubscribes from and a button that POSTs it: opening the link (as mail scanners do) changes nothing.',
          tags: ['alerts'],
          operationId: 'getAlertUnsubscribePage',
          querystring: z.object({ token: Token.optional() }),
          response: { 200: textContent('text/html', 'The page.'), 404: textContent('text/html', 'Not a valid link.') },
        },
      },
      async (request, reply) => {
        const token = request.query.token ?? '';
        const target = ctx.services.alerts && token ? await ctx.services.alerts.unsubscribeTarget(token) : undefined;
        if (!target) return sendHtml(reply as FastifyReply, unsubscribePage(site, { state: 'invalid' }), 404);
        return sendHtml(
          reply as FastifyReply,
          unsubscribePage(site, { state: 'confirm', token, label: target.label, email: target.email }),
        );
      },
    );

    r.post(
      '/alerts/unsubscribe',
      {
        schema: {
          summary: 'Stop the e-mail digest of an alert subscription (no key needed)',
          description:
            "The token from the digest's link, in the form body or the query (RFC 8058 one-click posts carry `List-Unsubscribe=One-Click` in the body and the token in the URL). The subscription's webhook and feed are unchanged. Doing it again is harmless.",
          tags: ['alerts'],
          operationId: 'postAlertUnsubscribe',
          querystring: z.object({ token: Token.optional() }),
          body: z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional(),
          response: {
            200: textContent('text/html', 'Unsubscribed.'),
            404: textContent('text/html', 'Not a valid link.'),
            ...errorResponses(400, 415, 429),
          },
        },
      },
      async (request, reply) => {
        const form = (request.body ?? {}) as Form;
        const token = one(form, 'token') || request.query.token || '';
        const outcome = ctx.services.alerts && token ? await ctx.services.alerts.unsubscribe(token) : undefined;
        if (!outcome?.ok) return sendHtml(reply as FastifyReply, unsubscribePage(site, { state: 'invalid' }), 404);
        return sendHtml(reply as FastifyReply, unsubscribePage(site, { state: 'done', label: outcome.value.label }));
      },
    );

    const pageBase = () => ({
      ...site,
      available: Boolean(ctx.services.alerts),
      mail: Boolean(ctx.config.mail.smtpUrl),
    });

    r.get(
      '/alerts',
      {
        schema: {
          summary: 'The alerts page (HTML): manage subscriptions with a credit-pack key',
          tags: ['alerts'],
          operationId: 'getAlertsPage',
          response: { 200: textContent('text/html', 'The page.') },
        },
      },
      (_request, reply) => {
        sendHtml(reply as FastifyReply, alertsPage(pageBase()));
      },
    );

    r.post(
      '/alerts',
      {
        config: PAID_ROUTE,
        schema: {
          summary: "The alerts page's forms (HTML): list, create or delete subscriptions",
          description:
            'Form fields: `key` (the credit-pack key), `action` (list, create or delete), `id` (delete), and for create the fields of AlertSubscriptionRequest (`startups` separated by commas or spaces, `sectors` and `signalTypes` repeated). Answers the page; a refused input is shown on it (status 400, 401 or 422), and 503 when alerts are off on this server.',
          tags: ['alerts'],
          operationId: 'postAlertsPage',
          body: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
          response: {
            200: textContent('text/html', 'The page.'),
            400: textContent('text/html', 'The page, naming the problem.'),
            401: textContent('text/html', 'The page, asking for a valid key.'),
            422: textContent('text/html', 'The page, naming the problem.'),
            503: textContent('text/html', 'The page, saying alerts are off on this server.'),
            ...errorResponses(415, 429),
          },
        },
      },
      async (request, reply) => {
        const raw = reply as FastifyReply;
        const base = pageBase();
        const alerts = ctx.services.alerts;
        if (!alerts) return sendHtml(raw, alertsPage(base), 503);
        const form = request.body as Form;
        const key = one(form, 'key');
        const account = await authenticateKey(ctx.store.db, key || undefined);
        if (!account.ok)
          return sendHtml(raw, alertsPage({ ...base, error: account.error.detail ?? 'Not a valid key.' }), 401);
        const accountId = account.value.id;
        const show = async (extra: Partial<AlertsPageInput>, status = 200) => {
          const subscriptions = await alerts.list(accountId);
          const withLogs = await Promise.all(
            subscriptions.map(async (subscription) => {
              const log = await alerts.deliveries(accountId, subscription.id);
              return { subscription, log: log.ok ? log.value : undefined };
            }),
          );
          return sendHtml(raw, alertsPage({ ...base, key, subscriptions: withLogs, ...extra }), status);
        };
        const action = one(form, 'action');
        if (action === 'create') {
          const watched = resolveWatchedStartups(ctx.holder.current, one(form, 'startups'), baseUrl);
          if (!watched.ok) return show({ error: watched.problem }, 400);
          const parsed = requestOfForm(form, watched.logins);
          if (!parsed.success) {
            const issue = parsed.error.issues[0];
            return show({ error: formProblem(issue) }, 400);
          }
          const created = await alerts.create(accountId, parsed.data);
          if (!created.ok) return show({ error: `Not created: ${created.error.detail}` }, created.error.status);
          return show({
            created: { subscription: created.value, webhookSecret: created.value.webhookSecret, names: watched.names },
          });
        }
        if (action === 'delete') {
          const id = one(form, 'id');
          const deleted = await alerts.delete(accountId, id);
          if (!deleted.ok) return show({ error: deleted.error.detail ?? 'Not found.' }, 404);
          return show({ deleted: id });
        }
        return show({});
      },
    );
  });
}
