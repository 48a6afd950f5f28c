import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ReadinessProbe } from '../../app.js';
import type { AppContext } from '../context.js';
import { unavailable } from '../problem.js';
import { errorResponses } from '../openapi.js';

export async function healthRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  probes: ReadinessProbe[] = [],
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/healthz',
    {
      schema: {
        summary: 'Liveness: the process is up',
        tags: ['operations'],
        operationId: 'healthz',
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { status: 'ok' as const };
    },
  );
  r.get(
    '/readyz',
    {
      schema: {
        summary: 'Readiness: the database (and Redis, when configured) answer and a period is loaded',
        tags: ['operations'],
        operationId: 'readyz',
        response: {
          200: z.object({
            status: z.literal('ready'),
            database: z.enum(['embedded', 'postgres']),
            checks: z.array(z.string()).describe('Further dependencies that answered (e.g. redis).'),
            period: z.string(),
          }),
          ...errorResponses(503),
        },
      },
    },
    async (_request, reply) => {
      try {
        await ctx.store.ping();
        for (const probe of probes) await probe.check();
      } catch (err) {
        throw unavailable(`A dependency is not reachable: ${(err as Error).message.slice(0, 200)}`, 5);
      }
      const period = ctx.holder.current?.period.slug;
      if (!period) throw unavailable('No period is loaded yet.', 5);
      reply.header('cache-control', 'no-store');
      return { status: 'ready' as const, database: ctx.store.mode, checks: probes.map((p) => p.name), period };
    },
  );
}
