import { z } from 'zod';
import { SectorSlug, SignalType } from './enums.js';

/**
 * Alerts (the interface leaves events open, so these shapes are the service's own and stable): what a
 * subscription watches, where it is delivered, the events a published period produces, and the delivery log.
 */

export const ALERT_EVENT_TYPES = [
  'trending.entered',
  'trending.left',
  'signal_type.changed',
  'commit_velocity.crossed',
  'contributor_growth.crossed',
] as const;
export const AlertEventType = z.enum(ALERT_EVENT_TYPES).meta({
  id: 'AlertEventType',
  description:
    'trending.entered / trending.left: the startup entered or left the trending top 20; signal_type.changed: its signal type changed; commit_velocity.crossed / contributor_growth.crossed: its commitVelocityChange or contributorGrowth percent crossed the threshold the subscription set (upwards or downwards).',
});
export type AlertEventType = z.infer<typeof AlertEventType>;

const percentThreshold = z
  .int()
  .min(-100)
  .max(100_000)
  .describe('A percent change (e.g. 50 for +50%): an event when the figure crosses it between two periods.');

export const AlertWatch = z
  .strictObject({
    startups: z
      .array(z.string().trim().min(1).max(100))
      .max(200)
      .optional()
      .describe(
        'Tracked startups, each by its GitHub organisation login or its name (case-insensitive), resolved by the strict name rule: exact name, organisation or alias, or a misspelt generic word beside the exact distinctive ones (never a misspelt distinctive word). Stored as organisation logins. An entry that is not a tracked startup is refused (422), naming it.',
      ),
    sectors: z.array(SectorSlug).max(15).optional().describe('Every startup of these sectors.'),
    signalTypes: z
      .array(SignalType)
      .max(4)
      .optional()
      .describe('Every startup whose signal type, this period or the one before, is one of these.'),
    trendingTop20: z
      .boolean()
      .optional()
      .describe('True: any tracked startup entering the trending top 20 is an event, watched or not.'),
    thresholds: z
      .strictObject({
        commitVelocityChange: percentThreshold.optional(),
        contributorGrowth: percentThreshold.optional(),
      })
      .optional()
      .describe('Thresholds for the watched startups (those named by startups, sectors or signalTypes).'),
  })
  .meta({
    id: 'AlertWatch',
    description:
      'What a subscription watches. The watched startups are those named by `startups`, `sectors` and `signalTypes` together; each gives trending.entered, trending.left and signal_type.changed events, and the threshold events when thresholds are set. `trendingTop20` adds trending.entered for every startup. At least one of startups, sectors, signalTypes or trendingTop20 must be given.',
  });
export type AlertWatch = z.infer<typeof AlertWatch>;

export const AlertSubscriptionRequest = z
  .strictObject({
    label: z.string().trim().min(1).max(100).optional().describe('A name of your own for the subscription.'),
    watch: AlertWatch,
    webhookUrl: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .optional()
      .describe(
        'An http(s) URL that receives each event as a signed POST (Standard Webhooks). Addresses that resolve to private, loopback or link-local networks are refused.',
      ),
    email: z.email().max(254).optional().describe('An address that receives one digest e-mail per period.'),
  })
  .meta({
    id: 'AlertSubscriptionRequest',
    description:
      'A new subscription: what to watch and where to deliver (a webhook, an e-mail address, both, or neither: the Atom feed is always there).',
  });
export type AlertSubscriptionRequest = z.infer<typeof AlertSubscriptionRequest>;

export const AlertSubscription = z
  .object({
    id: z.string().describe('`sub_` and 20 hex digits.'),
    label: z.string().nullable(),
    watch: AlertWatch,
    webhookUrl: z.string().nullable(),
    email: z.string().nullable(),
    feedUrl: z
      .url()
      .describe("The Atom feed of this subscription's events. It carries its own token: no key needed to read it."),
    deliveriesUrl: z.url(),
    createdAt: z.iso.datetime(),
    watching: z
      .array(
        z.object({
          org: z.string().describe('The GitHub organisation login, as stored in watch.startups.'),
          name: z.string().describe("The startup's name (its login when the current period no longer tracks it)."),
          url: z.url().describe('Its page on the site.'),
        }),
      )
      .describe('The startups of watch.startups, by name.'),
  })
  .meta({ id: 'AlertSubscription' });
export type AlertSubscription = z.infer<typeof AlertSubscription>;

export const CreatedAlertSubscription = AlertSubscription.extend({
  confirmation: z
    .string()
    .describe('What the subscription watches, in one sentence: "You are watching Zepatra Cloud."'),
  webhookSecret: z
    .string()
    .nullable()
    .describe(
      'The `whsec_` signing secret of the webhook, shown only in this answer (stored encrypted; never shown again). Null without a webhook.',
    ),
}).meta({ id: 'CreatedAlertSubscription' });
export type CreatedAlertSubscription = z.infer<typeof CreatedAlertSubscription>;

export const AlertSubscriptionList = z
  .object({ subscriptions: z.array(AlertSubscription) })
  .meta({ id: 'AlertSubscriptionList' });

const StartupRef = z.object({
  org: z.string(),
  name: z.string(),
  sector: SectorSlug,
  url: z.url().describe('Its page on the site.'),
});

const StartupState = z
  .object({
    rank: z.int().min(1).nullable().describe('Rank across all sectors (null: not ranked).'),
    signalType: SignalType,
    commitVelocityChange: z.string(),
    contributorGrowth: z.string(),
  })
  .describe('The startup in one period (absent when it was not tracked then).');

export const AlertEvent = z
  .object({
    id: z.string().describe('`msg_…`: the same as the webhook-id header, the same on every attempt.'),
    type: AlertEventType,
    timestamp: z.iso.datetime().describe('When the event was recorded.'),
    subscriptionId: z.string(),
    data: z.object({
      period: z.object({ slug: z.string(), name: z.string() }),
      previousPeriod: z.object({ slug: z.string(), name: z.string() }),
      startup: StartupRef,
      before: StartupState.nullable(),
      after: StartupState.nullable(),
      threshold: z.int().optional().describe('For the crossed events: the threshold, in percent.'),
      direction: z.enum(['up', 'down']).optional().describe('For the crossed events: which way it was crossed.'),
    }),
  })
  .meta({
    id: 'AlertEvent',
    description: 'One change of a published period for one subscription: the body of a webhook delivery.',
  });
export type AlertEvent = z.infer<typeof AlertEvent>;

export const AlertDelivery = z
  .object({
    id: z.string(),
    channel: z.enum(['webhook', 'email']),
    eventId: z.string().nullable().describe('The event delivered (webhooks); null for an e-mail digest.'),
    period: z.string(),
    target: z.string().describe('The webhook URL or e-mail address delivered to.'),
    status: z.enum(['pending', 'delivered', 'failed']),
    attempts: z.int().min(0),
    lastAttemptAt: z.iso.datetime().nullable(),
    lastStatus: z.int().nullable().describe('HTTP status of the last webhook attempt (null: no answer).'),
    lastError: z.string().nullable(),
    nextAttemptAt: z.iso.datetime().nullable().describe('When a pending delivery is tried again.'),
    deliveredAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'AlertDelivery' });
export type AlertDelivery = z.infer<typeof AlertDelivery>;

export const AlertDeliveryList = z
  .object({ deliveries: z.array(AlertDelivery).describe('Newest first, at most 100.') })
  .meta({ id: 'AlertDeliveryList' });
