/** One line of a benchmark report: a name and its measured values. */
export interface BenchResult {
  name: string;
  metrics: Record<string, string | number>;
}

export function printTable(title: string, results: readonly BenchResult[]): void {
  const columns = [...new Set(results.flatMap((r) => Object.keys(r.metrics)))];
  const rows = results.map((r) => [r.name, ...columns.map((c) => String(r.metrics[c] ?? ''))]);
  const header = ['case', ...columns];
  process.stdout.write(`\n### ${title}\n\n| ${header.join(' | ')} |\n|${header.map(() => ' --- ').join('|')}|\n`);
  for (const row of rows) process.stdout.write(`| ${row.join(' | ')} |\n`);
}

/** A case that reports several tables returns them with their titles. */
export interface BenchTable {
  title: string;
  results: BenchResult[];
}
