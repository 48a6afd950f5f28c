import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ReadinessProbe } from '../../app.js';
import type { AppContext } from '../context.js';
import { ServiceError } from '../../domain/errors.js';
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
        throw new ServiceError('dependency-unreachable', { reason: (err as Error).message }, { retryAfterSeconds: 5 });
      }
      const period = ctx.holder.current?.period.slug;
      if (!period) throw new ServiceError('no-period-loaded', {}, { retryAfterSeconds: 5 });
      reply.header('cache-control', 'no-store');
      return { status: 'ready' as const, database: ctx.store.mode, checks: probes.map((p) => p.name), period };
    },
  );
}
