import { resolve } from 'node:path'
import {
  type ParsedReleaseOptions,
  RELEASE_FORMATS,
  type ReleaseFormat,
  type ReleaseResult,
  releaseOptionsSchema,
} from '../../../shared/contract/release'
import { isEmptyFilter } from '../../../shared/filter'
import { runExport } from '../../tasks/exportJob'
import {
  type Command,
  type ParsedValues,
  UsageError,
  dbOption,
  optionalString,
  parseNumber,
  requireString,
} from '../command'
import { progressLine } from '../progress'
import { filterFromOptions, filterOptionSpec } from './query'
import { parseAsOfOption } from './rate'
import { plural } from '../../../shared/text'

/** A comma-separated option. Left out it means all; given, it must name something. */
function list(values: ParsedValues, name: string, all: string): string[] {
  const text = optionalString(values, name)
  if (text === undefined) return []
  const items = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
  if (items.length === 0)
    throw new UsageError(`--${name} names nothing; name ${all}, or leave it out for all of them`)
  return items
}

function splitSize(text: string, name: string): number {
  const n = parseNumber(text, name)
  if (n <= 0 || (n >= 1 && !Number.isInteger(n))) {
    throw new UsageError(
      `--${name} must be a number of stories (1, 2, …) or a fraction (0 < F < 1), got '${text}'`,
    )
  }
  return n
}

/** The export's options from the command line; bad values are usage errors naming the option. */
function exportOptionsFrom(values: ParsedValues): ParsedReleaseOptions {
  const tiers = list(values, 'tiers', 'the tiers (3,2)').map((t) =>
    parseNumber(t, 'tiers', { integer: true, min: 0 }),
  )
  const formats = list(values, 'format', `the formats (${RELEASE_FORMATS.join(',')})`)
  for (const f of formats) {
    if (!RELEASE_FORMATS.includes(f as ReleaseFormat)) {
      throw new UsageError(`--format must be a list of ${RELEASE_FORMATS.join(', ')}, got '${f}'`)
    }
  }
  const test = optionalString(values, 'split-test')
  const dev = optionalString(values, 'split-dev')
  const splitTier = optionalString(values, 'split-tier')
  const seed = optionalString(values, 'seed')
  if (test === undefined && (dev !== undefined || splitTier !== undefined || seed !== undefined)) {
    throw new UsageError('--split-dev, --split-tier and --seed need --split-test')
  }
  const filter = filterFromOptions(values)
  const asOf = parseAsOfOption(values)
  const parsed = releaseOptionsSchema.safeParse({
    out: resolve(requireString(values, 'out')),
    ...(tiers.length > 0 ? { tiers } : {}),
    ...(formats.length > 0 ? { formats } : {}),
    ...(isEmptyFilter(filter) ? {} : { filter }),
    ...(asOf === undefined ? {} : { asOf }),
    ...(test === undefined
      ? {}
      : {
          split: {
            test: splitSize(test, 'split-test'),
            ...(dev === undefined ? {} : { dev: splitSize(dev, 'split-dev') }),
            tier:
              splitTier === undefined
                ? 3
                : parseNumber(splitTier, 'split-tier', { integer: true, min: 0 }),
            ...(seed === undefined ? {} : { seed }),
          },
        }),
    pseudonymize: values.pseudonymize === true,
    neutralizeFormulas: values['neutralize-formulas'] === true,
    force: values.force === true,
  })
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new UsageError(`${issue?.path.join('.') ?? 'options'}: ${issue?.message ?? 'invalid'}`)
  }
  return parsed.data
}

function describeResult(result: ReleaseResult): string {
  return [
    ...result.files.map((f) => `${f.path}  ${plural(f.rows, 'row')}  ${f.sha256}`),
    `Wrote ${plural(result.files.length, 'data file')}, datasheet.md, README.md, croissant.json and manifest.json to ${result.out}`,
  ].join('\n')
}

export const exportCommand: Command = {
  name: 'export',
  summary: 'Write a release: tier files (CSV, JSONL, Parquet), split, datasheet, card and manifest',
  usage:
    'winnow export --db P --out DIR [--tiers 3,2,1] [--format csv,jsonl,parquet] [--as-of T]\n' +
    '         [--split-test N|F [--split-dev N|F] --split-tier 3 --seed S] [--pseudonymize]\n' +
    '         [--neutralize-formulas] [--force] [query filters] [--json]',
  options: {
    ...dbOption,
    ...filterOptionSpec,
    out: { type: 'string' },
    tiers: { type: 'string' },
    format: { type: 'string' },
    'as-of': { type: 'string' },
    'split-test': { type: 'string' },
    'split-dev': { type: 'string' },
    'split-tier': { type: 'string' },
    seed: { type: 'string' },
    pseudonymize: { type: 'boolean' },
    'neutralize-formulas': { type: 'boolean' },
    force: { type: 'boolean' },
  },
  async run(values, _positionals, io) {
    const dbPath = requireString(values, 'db')
    const options = exportOptionsFrom(values)
    const controller = new AbortController()
    const onInterrupt = (): void => controller.abort()
    process.once('SIGINT', onInterrupt)
    const bar = io.interactive ? progressLine(io, 'items', 'annotations') : undefined
    try {
      const result = await runExport(dbPath, options, {
        signal: controller.signal,
        report: (p) => bar?.update(p.done, p.total ?? null, p.done, p.detail),
      })
      bar?.done()
      return {
        json: { files: result.files, manifest: result.manifest, datasheet: result.datasheet },
        text: describeResult(result),
      }
    } finally {
      process.removeListener('SIGINT', onInterrupt)
    }
  },
}
