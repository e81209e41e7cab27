import { resolve } from 'node:path'
import { UserError } from '../../../shared/contract/errors'
import {
  type ParsedReleaseOptions,
  RELEASE_FORMATS,
  type ReleaseCard,
  type ReleaseFormat,
  type ReleasePart,
  type ReleasePreview,
  releaseOptionsSchema,
} from '../../../shared/contract/release'
import { isEmptyFilter } from '../../../shared/filter'
import { largest } from '../../../shared/lists'
import { openProject } from '../../db/connection'
import { runExport } from '../../tasks/exportJob'
import { cardOfRelease } from '../../release/placeholders'
import { previewRelease } from '../../release/preview'
import { cardPlaceholders, describePlaceholders } from '../../../shared/release/placeholders'
import {
  type Command,
  type ParsedValues,
  UsageError,
  dbOption,
  optionalString,
  parseNumber,
  requireString,
  stringList,
} from '../command'
import { progressLine } from '../progress'
import { filterFromOptions, filterOptionSpec } from './query'
import { parseAsOfOption } from './rate'
import { collections } from '../../collections/registry'
import type { ReleaseWriter } from '../../collections/collection'
import { releaseOutput } from '../releaseOutput'

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

const CARD_FIELDS = ['name', 'description', 'license', 'url', 'creator'] as const

/** `--card field=value`, repeated: the dataset card's fields for this release. */
function cardFrom(values: ParsedValues): Partial<ReleaseCard> | undefined {
  const card: Partial<Record<(typeof CARD_FIELDS)[number], string>> = {}
  for (const item of stringList(values, 'card')) {
    const eq = item.indexOf('=')
    const field = item.slice(0, Math.max(eq, 0)) as (typeof CARD_FIELDS)[number]
    if (eq <= 0 || !CARD_FIELDS.includes(field)) {
      throw new UsageError(
        `--card must be field=value with a field of ${CARD_FIELDS.join(', ')}, got '${item}'`,
      )
    }
    if (card[field] !== undefined) throw new UsageError(`--card ${field} is given twice`)
    card[field] = item.slice(eq + 1)
  }
  return Object.keys(card).length > 0 ? card : undefined
}

/** The export's options from the command line; bad values are usage errors naming the option. */
function exportOptionsFrom(values: ParsedValues, out: string): ParsedReleaseOptions {
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
  const card = cardFrom(values)
  const parsed = releaseOptionsSchema.safeParse({
    out,
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
    draft: values.draft === true,
    ...(card === undefined ? {} : { card }),
  })
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new UsageError(`${issue?.path.join('.') ?? 'options'}: ${issue?.message ?? 'invalid'}`)
  }
  return parsed.data
}

const PART_NAMES: Record<ReleasePart, string> = {
  all: '(no split)',
  train: 'train',
  dev: 'dev',
  test: 'test',
}

/** The dry run's table: per tier and part, what the files would hold, then what is left out. */
function describePreview(preview: ReleasePreview): string {
  const head = ['tier', 'split', 'rows', 'annotations', 'stories', 'workers']
  const rows = preview.parts.map((p) =>
    [p.tier, PART_NAMES[p.part], p.rows, p.annotations, p.stories, p.workers].map(String),
  )
  const widths = head.map((h, i) =>
    largest(
      rows.map((r) => (r[i] ?? '').length),
      h.length,
    ),
  )
  const line = (cells: string[]) =>
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ')
  const split = preview.split
  return [
    line(head),
    ...rows.map(line),
    ...(split
      ? [
          `Held out from tier ${split.tier}'s ${split.candidates} stories: ${split.test} for test` +
            (split.dev > 0 ? `, ${split.dev} for dev` : '') +
            '.',
        ]
      : []),
    ...preview.leftOut.map((l) => `Left out: ${l.annotations} annotations, ${l.reason}.`),
    `Dry run: nothing was written (${preview.total} annotations in scope).`,
  ].join('\n')
}

/** A refusal the command line can name its own remedy for. */
function withFlags(error: unknown): unknown {
  if (!(error instanceof UserError) || error.info.code !== 'card-placeholder') return error
  return new UserError({
    ...error.info,
    message: `${error.info.message.replace(/\.$/, '')} (--card url=… --card creator=…, or --draft).`,
  })
}

/** The collections that write a release of their own, by their `--collection` name. */
const writers = new Map<string, ReleaseWriter>(
  collections.flatMap((c) => ('release' in c ? [[c.id, c.release] as const] : [])),
)

/** Every collection's own export options (HALIE's `--task`). */
const writerOptions = Object.fromEntries(
  [...writers.values()].flatMap((w) => Object.entries(w.options)),
)

/**
 * Refuses a core option the chosen release cannot honour, and an option of another collection's
 * release, by the flag given; `writer` undefined is GLUCOSE's release.
 */
function refuseFlags(values: ParsedValues, kind: string, writer?: ReleaseWriter): void {
  for (const [flag, value] of Object.entries(values)) {
    if (value === undefined) continue
    const why = writer?.refuses[flag in filterOptionSpec ? 'filter' : flag]
    if (why !== undefined) throw new UsageError(`--${flag} is not for a ${kind} release: ${why}`)
    if (flag in writerOptions && !(writer && flag in writer.options)) {
      const owners = [...writers].filter(([, w]) => flag in w.options).map(([id]) => id)
      throw new UsageError(`--${flag} is for --collection ${owners.join(' or ')}`)
    }
  }
}

export const exportCommand: Command = {
  name: 'export',
  summary: 'Write a release: tier files (CSV, JSONL, Parquet), split, datasheet, card and manifest',
  usage:
    'winnow export --db P --out DIR [--tiers 3,2,1] [--format csv,jsonl,parquet] [--as-of T]\n' +
    '         [--split-test N|F [--split-dev N|F] --split-tier 3 --seed S] [--pseudonymize]\n' +
    '         [--neutralize-formulas] [--force] [--draft] [--card field=value]...\n' +
    '         [--dry-run] [query filters] [--json]\n' +
    [...writers]
      .map(([id, w]) => `       winnow export --collection ${id} --db P ${w.usage}\n`)
      .join('') +
    [...writers].map(([id, w]) => `  --collection ${id}: ${w.what}\n`).join('') +
    '  --draft: not for publication; the dataset card may hold placeholders (an example.org home\n' +
    '    page, creator unknown), and the datasheet, card and manifest say it is a draft\n' +
    '  --card: the card for this release (name, description, license, url, creator)\n' +
    '  --dry-run: rows, annotations, stories and workers per tier and split; writes nothing',
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
    draft: { type: 'boolean' },
    card: { type: 'string', multiple: true },
    'dry-run': { type: 'boolean' },
    collection: { type: 'string' },
    ...writerOptions,
  },
  async run(values, _positionals, io) {
    const dbPath = requireString(values, 'db')
    const kind = optionalString(values, 'collection') ?? 'glucose'
    const writer = writers.get(kind)
    if (kind !== 'glucose' && writer === undefined)
      throw new UsageError(
        `--collection must be ${['glucose', ...writers.keys()].join(', ')}, got '${kind}'`,
      )
    refuseFlags(values, kind, writer)
    if (writer) {
      const options = exportOptionsFrom(values, resolve(requireString(values, 'out')))
      return writer.fromCommandLine(dbPath, values, options)
    }
    if (values['dry-run'] === true) {
      const out = optionalString(values, 'out')
      const {
        out: _out,
        force: _force,
        ...options
      } = exportOptionsFrom(values, resolve(out ?? '.'))
      const db = openProject(dbPath)
      try {
        const preview = previewRelease(db, options)
        const card = cardOfRelease(db, dbPath, options)
        const placeholders = options.draft ? [] : cardPlaceholders(card)
        const refusal =
          placeholders.length === 0
            ? ''
            : `\nAn export would be refused: the dataset card still holds placeholders (${describePlaceholders(placeholders)}); set them with --card field=value, or add --draft.`
        return {
          json: { ...preview, placeholders },
          text: describePreview(preview) + refusal,
        }
      } finally {
        db.close()
      }
    }
    const options = exportOptionsFrom(values, resolve(requireString(values, 'out')))
    const controller = new AbortController()
    const onInterrupt = (): void => controller.abort()
    process.once('SIGINT', onInterrupt)
    const bar = io.interactive ? progressLine(io, 'items', 'annotations') : undefined
    try {
      const result = await runExport(dbPath, options, {
        signal: controller.signal,
        report: (p) => bar?.update(p.done, p.total ?? null, p.done, p.detail),
      }).catch((error: unknown) => {
        throw withFlags(error)
      })
      bar?.done()
      return releaseOutput(result)
    } finally {
      process.removeListener('SIGINT', onInterrupt)
    }
  },
}
