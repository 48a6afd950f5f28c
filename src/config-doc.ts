import { CONFIG_VARIABLES, type VariableSpec } from './config.js';

/**
 * The README's configuration table, generated from the one declaration of the configuration (CONFIG_VARIABLES):
 * one row per variable, in declaration order. `npm run docs:config` writes it between the two marker lines.
 */
export const TABLE_START = '<!-- configuration-table:start -->';
export const TABLE_END = '<!-- configuration-table:end -->';

/** The default column: the declared wording, else the raw default in backticks, else "unset". */
function shownDefault(spec: VariableSpec): string {
  if (spec.shown !== undefined) return spec.shown;
  if (typeof spec.default === 'string') return `\`${spec.default}\``;
  return 'unset';
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

/** The Markdown table (header, separator, one row per variable), without a trailing newline. */
export function configurationTable(): string {
  const rows = Object.entries(CONFIG_VARIABLES as Record<string, VariableSpec>).map(
    ([name, spec]) => `| \`${name}\` | ${cell(shownDefault(spec))} | ${cell(spec.doc)} |`,
  );
  return ['| Variable | Default | Meaning |', '| --- | --- | --- |', ...rows].join('\n');
}

/** The README with the text between the two marker lines replaced by the generated table. */
export function withConfigurationTable(readme: string): string {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (
    start < 0 ||
    end < start ||
    readme.indexOf(TABLE_START, start + 1) >= 0 ||
    readme.indexOf(TABLE_END, end + 1) >= 0
  ) {
    throw new Error(`the README must hold ${TABLE_START} and then ${TABLE_END}, once each`);
  }
  return `${readme.slice(0, start + TABLE_START.length)}\n${configurationTable()}\n${readme.slice(end)}`;
}
