/**
 * The datasets a period can come from: `github`, collected by the pipeline, or `synthetic-demo`, the generated demo
 * of fictional startups. Whether a period is synthetic is decided here and nowhere else: every surface that says
 * "synthetic" (meta, citations, CSV, the dataset export, the site's banner) asks this.
 */
export const SYNTHETIC_DATASET = 'synthetic-demo';
export const GITHUB_DATASET = 'github';
export type DatasetKind = typeof SYNTHETIC_DATASET | typeof GITHUB_DATASET;

export function isSyntheticDataset(dataset: string): boolean {
  return dataset === SYNTHETIC_DATASET;
}
