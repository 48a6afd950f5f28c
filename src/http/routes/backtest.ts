import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { backtestReport } from '../../core/backtest/report.js';
import { BacktestReport } from '../../schemas/backtest.js';
import { deriveAsync } from '../../snapshot/derive-async.js';
import { rendered, type Snapshot } from '../../snapshot/snapshot.js';
import { sendRendered } from '../conditional.js';
import { currentSnapshot, type AppContext } from '../context.js';
import { errorResponses } from '../openapi.js';

/** The report rendered once per period, like the other published documents. */
const reportBody = deriveAsync(async (snapshot: Snapshot) =>
  rendered(JSON.stringify(await backtestReport(snapshot)), 'application/json; charset=utf-8'),
);

/** GET /api/v1/backtest.json: the published backtest (docs/backtest.md), or why none has been run. */
export async function backtestRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v1/backtest.json',
    {
      schema: {
        summary: 'Backtest: does the weekly signal come before funding rounds and acquisitions?',
        description:
          'The point-in-time backtest of docs/backtest.md: for each stored week, the share of the top k by composite score, by each signal type and by the controls (commits, contributors, a random ranking) that announced a round or acquisition within 13 and 26 weeks, against the base rate of all tracked startups (lift), with bootstrap confidence intervals over startups, lead times, coverage and limits. `status` is `computed` with the figures, or `not-run` with the reasons; `synthetic` is true when the figures are of the synthetic demo data.',
        tags: ['documents'],
        operationId: 'getBacktest',
        response: { 200: BacktestReport, ...errorResponses(503) },
      },
    },
    async (request: FastifyRequest, reply: FastifyReply) => {
      sendRendered(request, reply, await reportBody(currentSnapshot(ctx)));
      return reply;
    },
  );
}
