import { z } from 'zod';
import { ServiceError } from '../domain/errors.js';
import { GITHUB_USERNAME_SCHEMA_PATTERN } from '../schemas/enums.js';
import { AlertDelivery, AlertSubscription, AlertSubscriptionRequest, AlertWatch } from '../schemas/alerts.js';
import type { AgentToolDefinition, AnyAgentTool, RestAnalog, ToolEnv } from './registry.js';

/**
 * The alerts tools for agents: the caller's alert subscriptions (docs/alerts.md), opened with its credit-pack key, no
 * credit spent. One tool per operation, so that each carries its own annotations (a host asks for confirmation before
 * a delete, never before a list) and each argument schema is a plain strict object that OpenAI's strict mode takes.
 * Offered over MCP beside the registry's tools and answered by the same core service as /api/alerts/subscriptions.
 * There is no update: the service has none (delete and create again).
 */
const Id = z
  .string()
  .regex(/^sub_[0-9a-f]{20}$/)
  .describe('The subscription id: sub_ and 20 hex digits.');

const ById = z.strictObject({ id: Id });
const NoArguments = z.strictObject({});
const CreateInput = z.strictObject({
  label: AlertSubscriptionRequest.shape.label,
  // A copy without the registry id, so the argument schema is inline (no $ref) in every format.
  watch: AlertWatch.extend({
    // The GitHub rule written without look-ahead (the same logins), which OpenAI's strict mode refuses.
    startups: z
      .array(z.string().min(1).max(39).regex(GITHUB_USERNAME_SCHEMA_PATTERN))
      .max(200)
      .optional()
      .describe(
        'GitHub organisation logins of tracked startups (case-insensitive); one this service does not track is refused, naming it.',
      ),
  }).describe('What to watch: startups, sectors, signalTypes, trendingTop20, thresholds.'),
  webhookUrl: AlertSubscriptionRequest.shape.webhookUrl,
  // The HTML form's rule: the default pattern uses look-ahead, which OpenAI's strict mode refuses.
  email: z
    .email({ pattern: z.regexes.html5Email })
    .max(254)
    .optional()
    .describe(AlertSubscriptionRequest.shape.email.description ?? 'An address for the digest.'),
});

const Output = z.object({
  action: z.string(),
  subscriptions: z.array(AlertSubscription.extend({})).optional().describe('For list.'),
  subscription: AlertSubscription.extend({}).optional().describe('For create and get.'),
  webhookSecret: z
    .string()
    .nullable()
    .optional()
    .describe('For create: the whsec_ signing secret of the webhook, shown only this once.'),
  confirmation: z
    .string()
    .optional()
    .describe('For create: what the subscription watches, in one sentence ("You are watching Zepatra Cloud.").'),
  deliveries: z.array(AlertDelivery.extend({})).optional().describe('For deliveries: the log, newest first.'),
  deleted: z.string().optional().describe('For delete: the id deleted.'),
});
type Output = z.input<typeof Output>;

function need<T>(outcome: { ok: true; value: T } | { ok: false; error: ServiceError }): T {
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}

async function openAlerts(env: ToolEnv) {
  const alerts = env.ctx.services.alerts;
  if (!alerts) throw new ServiceError('alerts-off');
  return { alerts, account: need(await env.authenticate()) };
}

const rest = (method: RestAnalog['method'], path: string, note: string) => ({ method, path, note });
const KEYED = 'With the credit-pack key (Authorization: Bearer); no credit spent.';
const READ_ONLY = { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false };

/** Each tool's output schema names only the fields it answers, so tools/list does not repeat the others. */
function alertTool<I extends z.ZodObject>(
  fields: readonly ('subscriptions' | 'subscription' | 'webhookSecret' | 'confirmation' | 'deliveries' | 'deleted')[],
  definition: Omit<AgentToolDefinition<I, typeof Output>, 'paid' | 'outputSchema'>,
): AnyAgentTool {
  const outputSchema = Output.pick({ action: true, ...Object.fromEntries(fields.map((f) => [f, true])) });
  return { ...definition, outputSchema, paid: false } as unknown as AnyAgentTool;
}

/** Tools offered over MCP beside the registry's. */
export const alertAgentTools: readonly AnyAgentTool[] = [
  alertTool(['subscriptions'], {
    name: 'list_alert_subscriptions',
    title: 'List alert subscriptions',
    description: `The alert subscriptions of your key, each with what it watches, where it delivers and its feedUrl. ${KEYED}`,
    inputSchema: NoArguments,
    annotations: READ_ONLY,
    rest: rest('GET', '/api/alerts/subscriptions', 'The same list.'),
    handler: async (_args, env) => {
      const { alerts, account } = await openAlerts(env);
      return { action: 'list', subscriptions: await alerts.list(account.id) };
    },
  }),
  alertTool(['subscription'], {
    name: 'get_alert_subscription',
    title: 'Get an alert subscription',
    description: `One alert subscription of your key, by id. ${KEYED}`,
    inputSchema: ById,
    annotations: READ_ONLY,
    rest: rest('GET', '/api/alerts/subscriptions/{id}', 'The same subscription.'),
    handler: async ({ id }, env) => {
      const { alerts, account } = await openAlerts(env);
      return { action: 'get', subscription: need(await alerts.get(account.id, id)) };
    },
  }),
  alertTool(['deliveries'], {
    name: 'list_alert_deliveries',
    title: 'Alert delivery log',
    description: `The delivery log of one alert subscription of your key, newest first. ${KEYED}`,
    inputSchema: ById,
    annotations: READ_ONLY,
    rest: rest('GET', '/api/alerts/subscriptions/{id}/deliveries', 'The same log.'),
    handler: async ({ id }, env) => {
      const { alerts, account } = await openAlerts(env);
      return { action: 'deliveries', deliveries: need(await alerts.deliveries(account.id, id)) };
    },
  }),
  alertTool(['subscription', 'webhookSecret', 'confirmation'], {
    name: 'create_alert_subscription',
    title: 'Create an alert subscription',
    description: `Subscribes to changes of startups (GitHub organisations), sectors, signal types or the trending top 20, with optional percent thresholds; each published period's matching changes go to a webhook (Standard Webhooks, signed), an e-mail digest and the subscription's Atom feed (feedUrl). ${KEYED}`,
    inputSchema: CreateInput,
    // Creates something new on each call, and a webhook or an address outside this service is then written to.
    annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: false, openWorldHint: true },
    rest: rest('POST', '/api/alerts/subscriptions', 'The same body.'),
    handler: async (args, env) => {
      const { alerts, account } = await openAlerts(env);
      const { webhookSecret, confirmation, ...subscription } = need(
        await alerts.create(account.id, {
          watch: args.watch,
          ...(args.label ? { label: args.label } : {}),
          ...(args.webhookUrl ? { webhookUrl: args.webhookUrl } : {}),
          ...(args.email ? { email: args.email } : {}),
        }),
      );
      return { action: 'create', subscription, webhookSecret, confirmation };
    },
  }),
  alertTool(['deleted'], {
    name: 'delete_alert_subscription',
    title: 'Delete an alert subscription',
    description: `Deletes one alert subscription of your key, by id; its deliveries stop. ${KEYED}`,
    inputSchema: ById,
    // Removes what cannot be restored; deleting it again changes nothing more.
    annotations: { readOnlyHint: false, idempotentHint: true, destructiveHint: true, openWorldHint: false },
    rest: rest('DELETE', '/api/alerts/subscriptions/{id}', 'The same deletion.'),
    handler: async ({ id }, env) => {
      const { alerts, account } = await openAlerts(env);
      need(await alerts.delete(account.id, id));
      return { action: 'delete', deleted: id };
    },
  }),
];

export function findAlertTool(name: string): AnyAgentTool | undefined {
  return alertAgentTools.find((t) => t.name === name);
}
