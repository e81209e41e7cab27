import type { ReleaseFile, ReleaseFormat } from '../../shared/contract/release'
import { draftNotice } from './draft'
import type { ReleaseFacts } from './facts'

/** The format a hub should load: Parquet when written, else JSON Lines, else CSV. */
export function primaryFormat(formats: readonly ReleaseFormat[]): ReleaseFormat {
  if (formats.includes('parquet')) return 'parquet'
  if (formats.includes('jsonl')) return 'jsonl'
  return 'csv'
}

/** The hub's size category of a number of rows. */
function sizeCategory(n: number): string {
  if (n < 1_000) return 'n<1K'
  if (n < 10_000) return '1K<n<10K'
  if (n < 100_000) return '10K<n<100K'
  if (n < 1_000_000) return '100K<n<1M'
  if (n < 10_000_000) return '1M<n<10M'
  return '10M<n<100M'
}

/** A YAML scalar written as a JSON string (JSON strings are YAML). */
const q = (text: string): string => JSON.stringify(text)

/** The dataset configs: one per tier, its files by split. */
function hubConfigs(
  files: readonly ReleaseFile[],
  format: ReleaseFormat,
): { name: string; tier: number; splits: { split: string; path: string }[] }[] {
  const tiers = [...new Set(files.map((f) => f.tier))].sort((a, b) => b - a)
  return tiers.map((tier) => ({
    name: `tier_${tier}`,
    tier,
    splits: files
      .filter((f) => f.tier === tier && f.format === format)
      .map((f) => ({ split: f.part === 'all' ? 'train' : f.part, path: f.path })),
  }))
}

/**
 * README.md: a dataset card with the YAML front matter a dataset hub reads (configs with their
 * data files per tier and split, licence, task categories, size category), so the folder can be
 * uploaded as it is.
 */
export function buildCard(facts: ReleaseFacts): string {
  const format = primaryFormat(facts.options.formats)
  const configs = hubConfigs(facts.files, format)
  const rows = facts.files.filter((f) => f.format === format).reduce((n, f) => n + f.rows, 0)
  const yaml = [
    '---',
    `pretty_name: ${q(facts.card.name)}`,
    `license: ${q(facts.card.license)}`,
    'language:',
    '- en',
    'task_categories:',
    '- text-generation',
    'size_categories:',
    `- ${q(sizeCategory(rows))}`,
    'configs:',
    ...configs.flatMap((c, i) => [
      `- config_name: ${q(c.name)}`,
      ...(i === 0 ? ['  default: true'] : []),
      '  data_files:',
      ...c.splits.flatMap((s) => [`  - split: ${q(s.split)}`, `    path: ${q(s.path)}`]),
    ]),
    '---',
  ]
  const body = [
    '',
    `# ${facts.card.name}`,
    '',
    ...draftNotice(facts),
    facts.card.description,
    '',
    '## Files',
    '',
    'One file per tier, split and format under `data/`; each tier is a config of its own.',
    '',
    '| file | tier | split | rows | annotations |',
    '|---|---|---|---|---|',
    ...facts.files.map(
      (f) => `| ${f.path} | ${f.tier} | ${f.part} | ${f.rows} | ${f.annotations} |`,
    ),
    '',
    'CSV files follow the GLUCOSE release layout (49 columns, `worker_quality_rating` holding the tier); ' +
      'JSON Lines files hold one object per submission with its filled dimensions nested; Parquet files ' +
      'hold the CSV columns with their types.',
    '',
    'How the release was made, what it counts and what it leaves out: `datasheet.md`. Inputs, settings ' +
      'and checksums: `manifest.json`. Machine-readable metadata (MLCommons Croissant 1.0): `croissant.json`.',
    '',
    `Licence: ${facts.card.license}. Creator: ${facts.card.creator}. Home page: ${facts.card.url}`,
    '',
  ]
  return [...yaml, ...body].join('\n')
}
