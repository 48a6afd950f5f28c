import { z } from 'zod';

/** RFC 9457 problem details, the body of every error this service answers. */
export const Problem = z
  .object({
    type: z.string().describe('A URI reference identifying the problem type.'),
    title: z.string(),
    status: z.int().min(400).max(599),
    detail: z.string().optional(),
    instance: z.string().optional(),
    errors: z
      .array(z.object({ location: z.string(), message: z.string() }))
      .optional()
      .describe('Each invalid input, where it was and what was wrong.'),
  })
  // Members of a problem's own (RFC 9457 section 3.2: `purchaseUrl` on a 401, the known `slugs` on a 404).
  .loose()
  .meta({
    id: 'Problem',
    description:
      'RFC 9457 problem details (application/problem+json), with extension members where a problem has them.',
  });
export type Problem = z.infer<typeof Problem>;
