import { renderMetrics } from '../../src/metrics.js';

/** The value of the first series of this process's /metrics text that starts with `series` (0 when absent). */
export async function metricValue(series: string): Promise<number> {
  const { body } = await renderMetrics();
  const line = body.split('\n').find((l) => l.startsWith(series));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}
