import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  countCreditsCharged,
  countGithubRequests,
  countPayment,
  countPipelineRun,
  renderMetrics,
} from '../src/metrics.js';

async function value(series: string): Promise<number> {
  const { body } = await renderMetrics();
  const line = body.split('\n').find((l) => l.startsWith(series));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

describe('metrics other parts of the service count', () => {
  test('credits charged add up, and a miss (0) adds nothing', async () => {
    const before = await value('credits_charged_total');
    countCreditsCharged();
    countCreditsCharged(2);
    countCreditsCharged(0);
    assert.equal(await value('credits_charged_total'), before + 3);
  });

  test('payments are counted by method and outcome', async () => {
    const settled = 'payments_total{method="x402",outcome="settled"';
    const refused = 'payments_total{method="solana",outcome="refused"';
    const [s0, r0] = [await value(settled), await value(refused)];
    countPayment('x402', 'settled');
    countPayment('solana', 'refused');
    countPayment('solana', 'refused');
    assert.equal(await value(settled), s0 + 1);
    assert.equal(await value(refused), r0 + 2);
  });

  test('pipeline runs by outcome and GitHub requests by kind and result', async () => {
    const run = 'pipeline_runs_total{outcome="published"';
    const gh = 'github_requests_total{kind="rest",result="not_modified"';
    const [r0, g0] = [await value(run), await value(gh)];
    countPipelineRun('published');
    countGithubRequests('rest', 'not_modified', 5);
    assert.equal(await value(run), r0 + 1);
    assert.equal(await value(gh), g0 + 5);
  });

  test('the text is Prometheus exposition format', async () => {
    const { contentType, body } = await renderMetrics();
    assert.match(contentType, /^text\/plain; version=0\.0\.4/);
    assert.match(body, /^# TYPE credits_charged_total counter$/m);
    assert.match(body, /^# TYPE http_request_duration_seconds histogram$/m);
  });
});
