import { z } from 'zod';
import { ServiceError } from '../domain/errors.js';
import { AlertDelivery, AlertSubscription, AlertSubscriptionRequest, AlertWatch } from '../schemas/alerts.js';
import type { AgentToolDefinition, AnyAgentTool, ToolEnv } from './registry.js';

/**
 * The alerts tool for agents: manage the caller's alert subscriptions (docs/alerts.md) with its credit-pack key, no
 * credit spent. Offered over MCP (beside the interface's eight tools, which stay the registry's `agentTools`) and
 * answered by the same core service as /api/alerts/subscriptions.
 */
const Id = z
  .string()
  .regex(/^sub_[0-9a-f]{20}$/)
  .describe('The subscription id (sub_ and 20 hex digits); for get, delete and deliveries.');

const Input = z.strictObject({
  action: z
    .enum(['create', 'list', 'get', 'delete', 'deliveries'])
    .describe('create a subscription, list them, get one, delete one, or read its delivery log.'),
  id: Id.optional(),
  label: AlertSubscriptionRequest.shape.label,
  watch: AlertWatch.optional().describe('For create: what to watch (see AlertWatch).'),
  webhookUrl: AlertSubscriptionRequest.shape.webhookUrl,
  email: AlertSubscriptionRequest.shape.email,
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
  deliveries: z.array(AlertDelivery.extend({})).optional().describe('For deliveries: the log, newest first.'),
  deleted: z.string().optional().describe('For delete: the id deleted.'),
});
type Output = z.input<typeof Output>;

function need<T>(outcome: { ok: true; value: T } | { ok: false; error: ServiceError }): T {
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}

async function manage(args: z.output<typeof Input>, env: ToolEnv): Promise<Output> {
  const alerts = env.ctx.services.alerts;
  if (!alerts)
    throw new ServiceError('unavailable', 'Alerts are off on this server: its operator has not set ALERTS_SECRET.');
  const account = need(await env.authenticate());
  const requireId = () => {
    if (!args.id) throw new ServiceError('invalid-arguments', `The ${args.action} action needs an id.`);
    return args.id;
  };
  switch (args.action) {
    case 'list':
      return { action: 'list', subscriptions: await alerts.list(account.id) };
    case 'get':
      return { action: 'get', subscription: need(await alerts.get(account.id, requireId())) };
    case 'delete': {
      const id = requireId();
      need(await alerts.delete(account.id, id));
      return { action: 'delete', deleted: id };
    }
    case 'deliveries':
      return { action: 'deliveries', deliveries: need(await alerts.deliveries(account.id, requireId())) };
    case 'create': {
      if (!args.watch) throw new ServiceError('invalid-arguments', 'The create action needs a watch.');
      const { webhookSecret, ...subscription } = need(
        await alerts.create(account.id, {
          watch: args.watch,
          ...(args.label ? { label: args.label } : {}),
          ...(args.webhookUrl ? { webhookUrl: args.webhookUrl } : {}),
          ...(args.email ? { email: args.email } : {}),
        }),
      );
      return { action: 'create', subscription, webhookSecret };
    }
  }
}

const manageAlertSubscriptions: AgentToolDefinition<typeof Input, typeof Output> = {
  name: 'manage_alert_subscriptions',
  title: 'Manage alert subscriptions',
  description:
    "Create, list, get, delete alert subscriptions of your credit-pack key (no credit spent), or read one's delivery log. A subscription watches startups (GitHub organisations), sectors, signal types or any startup entering the trending top 20, with optional percent thresholds for commit velocity change and contributor growth; each published period's matching changes go to a webhook (Standard Webhooks, signed), an e-mail digest, and the subscription's Atom feed (feedUrl).",
  inputSchema: Input,
  outputSchema: Output,
  annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: true, openWorldHint: true },
  rest: { method: 'POST', path: '/api/alerts/subscriptions', note: 'Also GET, DELETE and …/deliveries, …/feed.atom.' },
  paid: false,
  handler: manage,
};

/** Tools offered over MCP beside the registry's eight. */
export const alertAgentTools: readonly AnyAgentTool[] = [manageAlertSubscriptions as unknown as AnyAgentTool];

export function findAlertTool(name: string): AnyAgentTool | undefined {
  return alertAgentTools.find((t) => t.name === name);
}
