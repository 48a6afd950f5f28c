import { z } from 'zod';

/** GET /api/account/credits. */
export const CreditState = z
  .object({
    balance: z.int().min(0).describe('Credits left. Credits do not expire.'),
    purchased: z.int().min(0).describe('Credits ever granted to this account (packs bought, grants).'),
    consumed: z.int().min(0).describe('Credits spent: one per Deep Signal call that matched a tracked startup.'),
    lastConsumedAt: z.iso.datetime().nullable().describe('When the last credit was spent; null before the first.'),
    purchaseUrl: z.url().describe('Where to buy another pack.'),
  })
  .meta({ id: 'CreditState' });
export type CreditState = z.infer<typeof CreditState>;
