import { mkdirSync, writeFileSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import { version } from '../../../../package.json'
import { UserError } from '../../../shared/contract/errors'
import type {
  ParsedReleaseOptions,
  ReleaseFile,
  ReleaseResult,
} from '../../../shared/contract/release'
import type { HalieTable, HalieTask } from '../../../shared/halie/tasks'
import { ratingKey } from '../../../shared/ratings/key'
import type { Db } from '../../db/connection'
import { halieRatingsAsOf } from './db/ratings'
import { halieRatingChangeSets, tableRows, taskSessionIds, taskTables } from './db/release'
import { ratingSnapshot, sourceFileRecords } from '../../db/queries/release/rows'
import { CancelledError } from '../../jobs/cancel'
import { ratingScale } from '../../ratings/scale'
import { csvField } from '../../release/cells'
import { croissantDataset } from '../../release/croissant'
import { draftNotice } from '../../release/draft'
import { finishRelease } from '../../release/finish'
import { checkOutputFolder, checkReleasePlace } from '../../release/folder'
import { isoTime } from '../../release/facts'
import {
  type StepHook,
  createPartial,
  discardPartial,
  removeLeftoverPartials,
} from '../../release/partial'
import { cardOfRelease, refusePlaceholders } from '../../release/placeholders'
import { releasedTiers, tierMap } from '../../release/settings'
import { hashFile } from '../../release/writers'
import { type EffectiveRating, blockRating, sessionRatings } from './ratings'

/**
 * A release of one HALIE task: per tier, the task's standardised tables (`event_blocks.csv`,
 * `survey_responses.csv`, crossword's `accuracies.csv`) holding the rows of that tier exactly as
 * imported (header and cells as read, rows in file order), with the datasheet, card, Croissant
 * metadata and manifest every release has, written through the same hidden partial folder.
 *
 * An event block goes to the tier of its effective rating (its own, else its session's); a survey
 * or accuracy row to its session's. Self-contained so it can be declared to a registry of
 * collection release writers.
 */

export interface HalieReleaseHooks {
  progress(done: number, total: number, step?: string): void
  cancelled(): boolean
  reached?: StepHook
}

const QUIET_HOOKS: HalieReleaseHooks = { progress: () => undefined, cancelled: () => false }

const WHOLE_TASK = 'A HALIE release holds a whole task'

/**
 * The release options a HALIE release cannot honour, by field and by the command line's flag
 * (`winnow export --collection halie` refuses the flags; the page's call, the fields).
 */
export const HALIE_REFUSALS = [
  {
    field: 'split',
    flag: 'split-test',
    why: 'A HALIE release keeps each tier whole; a held-out split is drawn from GLUCOSE stories only.',
  },
  {
    field: 'filter',
    flag: 'filter',
    why: `${WHOLE_TASK}; the review grid’s filters select GLUCOSE annotations.`,
  },
  {
    field: 'pseudonymize',
    flag: 'pseudonymize',
    why: 'A HALIE release keeps the tables’ worker ids as imported; --pseudonymize is for GLUCOSE releases.',
  },
  {
    field: 'neutralizeFormulas',
    flag: 'neutralize-formulas',
    why: 'A HALIE release writes every cell as imported; --neutralize-formulas would change cells.',
  },
] as const satisfies readonly { field: keyof ParsedReleaseOptions; flag: string; why: string }[]

/** The release options a HALIE release cannot honour, refused before anything is written. */
function refuseUnsupported(options: ParsedReleaseOptions): void {
  const refuse = (field: string, message: string): never => {
    throw new UserError({ type: 'invalid-argument', code: 'not-for-halie', message, field })
  }
  if (options.formats.some((f) => f !== 'csv'))
    refuse(
      'formats',
      'A HALIE release writes the task’s standardised CSV files only; leave out --format or give csv.',
    )
  for (const { field, why } of HALIE_REFUSALS) if (options[field]) refuse(field, why)
}

interface TableTally {
  kind: HalieTable
  tier: number
  rows: number
  sessions: Set<number>
}

export function exportHalieRelease(
  db: Db,
  projectPath: string,
  task: HalieTask,
  options: ParsedReleaseOptions,
  hooks: HalieReleaseHooks = QUIET_HOOKS,
): ReleaseResult {
  const project = resolve(projectPath)
  const reached = hooks.reached ?? (() => undefined)
  refuseUnsupported(options)
  checkReleasePlace(options.out)
  removeLeftoverPartials(options.out, project, reached)
  checkOutputFolder(options.out, options.force, project)
  const card = cardOfRelease(db, projectPath, options)
  refusePlaceholders(card, options.draft)
  const steps = tierMap(db)
  const { lookup, tiers } = releasedTiers(steps, options)
  const tables = taskTables(db, task)
  if (tables.length === 0)
    throw new UserError({
      type: 'not-found',
      code: 'no-halie-task',
      message: `The project holds no HALIE ${task} tables to release.`,
      field: 'task',
    })

  const items = options.asOf === undefined ? undefined : halieRatingsAsOf(db, options.asOf)
  const sessions = sessionRatings(db, {
    ids: taskSessionIds(db, task),
    ...(options.asOf === undefined ? {} : { asOf: options.asOf }),
    ...(items ? { items } : {}),
  })
  const unrated: EffectiveRating = { value: null, source: null }

  const partial = createPartial(options.out)
  const temp = partial.content
  try {
    const written: ReleaseFile[] = []
    const tallies: TableTally[] = []
    const leftOut = new Map<string, number>()
    const byRating = new Map<string, number>()
    let done = 0
    hooks.progress(0, 0, 'Writing tier files')
    for (const table of tables) {
      const lines = new Map<number, string[]>(tiers.map((t) => [t, []]))
      const counts = new Map<number, TableTally>()
      for (const [rowId, sessionId, cells, own] of tableRows(db, table.id)) {
        const session = sessions.get(sessionId) ?? unrated
        const ownNow = items ? (items.get(`block:${rowId}`) ?? null) : own
        const rating = table.kind === 'event_blocks' ? blockRating(ownNow, session) : session
        if (table.kind === 'event_blocks') {
          const key = ratingKey(rating.value)
          byRating.set(key, (byRating.get(key) ?? 0) + 1)
        }
        const tier = rating.value === null ? undefined : lookup.get(rating.value)
        done++
        if (tier === undefined) {
          const reason = leftOutReason(rating.value, steps)
          const key = `${table.kind}: ${reason}`
          leftOut.set(key, (leftOut.get(key) ?? 0) + 1)
          continue
        }
        lines.get(tier)?.push((JSON.parse(cells) as string[]).map(csvField).join(','))
        const tally = counts.get(tier) ?? { kind: table.kind, tier, rows: 0, sessions: new Set() }
        tally.rows++
        tally.sessions.add(sessionId)
        counts.set(tier, tally)
        if (done % 4096 === 0) {
          if (hooks.cancelled())
            throw new CancelledError('Export cancelled; no release folder was written.')
          hooks.progress(done, 0)
        }
      }
      const head = table.header.map(csvField).join(',')
      for (const tier of tiers) {
        const rows = lines.get(tier) ?? []
        const path = `data/tier-${tier}/${table.kind}.csv`
        mkdirSync(join(temp, 'data', `tier-${tier}`), { recursive: true })
        // LF line ends and minimal quoting, as the released HALIE tables are written.
        writeFileSync(join(temp, path), [head, ...rows].join('\n') + '\n', { flag: 'wx' })
        written.push({
          path,
          format: 'csv',
          tier,
          part: 'all',
          rows: rows.length,
          annotations: rows.length,
          ...hashFile(join(temp, path)),
        })
        tallies.push(counts.get(tier) ?? { kind: table.kind, tier, rows: 0, sessions: new Set() })
      }
    }
    written.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    hooks.progress(done, done, 'Finishing files')

    const until = options.asOf ?? Number.MAX_SAFE_INTEGER
    const facts: HalieFacts = {
      task,
      createdAt: Date.now(),
      projectName: basename(projectPath).replace(/\.winnow$/, ''),
      card,
      options,
      tierMap: steps,
      tiers,
      scale: ratingScale(db).map((l) => ({ value: l.value, label: l.label })),
      files: written,
      tables: tables.map((t) => ({ kind: t.kind, header: t.header, source: t.sourceName })),
      tallies,
      leftOut,
      byRating,
      changeSets: halieRatingChangeSets(db, until),
      inputs: sourceFileRecords(db).filter((f) => f.name.startsWith(`${task}/`)),
      ratingSnapshot: ratingSnapshot(db, options.asOf),
    }
    const datasheet = halieDatasheet(facts)
    const manifest = finishRelease(
      db,
      partial,
      { out: options.out, force: options.force, projectPath: project, createdAt: facts.createdAt },
      {
        datasheet,
        card: halieCard(facts),
        croissant: halieCroissant(facts),
        manifest: (documents) => halieManifest(facts, documents),
      },
      { cancelled: () => hooks.cancelled(), reached },
    )
    return {
      out: options.out,
      files: written.map((f) => ({ path: f.path, rows: f.rows, sha256: f.sha256 })),
      manifest,
      datasheet,
    }
  } catch (error) {
    discardPartial(partial)
    throw error
  }
}

function leftOutReason(
  rating: number | null,
  steps: readonly { rating: number; tier: number }[],
): string {
  if (rating === null) return 'unrated'
  const step = steps.find((s) => s.rating === rating)
  return step
    ? `tier ${step.tier} not chosen`
    : `rating ${ratingKey(rating)} is not mapped to a tier`
}

interface HalieFacts {
  task: HalieTask
  createdAt: number
  projectName: string
  card: ReturnType<typeof cardOfRelease>
  options: ParsedReleaseOptions
  tierMap: { rating: number; tier: number }[]
  tiers: number[]
  scale: { value: number; label: string }[]
  files: ReleaseFile[]
  tables: { kind: HalieTable; header: string[]; source: string }[]
  tallies: TableTally[]
  leftOut: Map<string, number>
  byRating: Map<string, number>
  changeSets: ReturnType<typeof halieRatingChangeSets>
  inputs: ReturnType<typeof sourceFileRecords>
  ratingSnapshot: number | null
}

const ROW_ORDER =
  'Rows keep the order of the imported file; each row’s cells are the imported cells, unchanged.'

function halieDatasheet(f: HalieFacts): string {
  const table = (head: string[], rows: (string | number)[][]): string[] => [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
    '',
  ]
  return [
    `# Datasheet: ${f.card.name}`,
    '',
    ...draftNotice(f),
    `HALIE ${f.task} task, released by Winnow ${version} on ${isoTime(f.createdAt) ?? ''}` +
      (f.options.asOf === undefined ? '' : `, ratings as of ${isoTime(f.options.asOf) ?? ''}`) +
      '.',
    '',
    '## Composition',
    '',
    ...table(
      ['tier', 'table', 'rows', 'sessions'],
      f.tallies.map((t) => [t.tier, t.kind, t.rows, t.sessions.size]),
    ),
    ROW_ORDER,
    '',
    '## How tiers were decided',
    '',
    'An event block is in the tier its rating maps to: its own rating, else its session’s. A survey ' +
      'or accuracy row follows its session: the session’s own rating, else its worker’s rating in ' +
      'force when the session began.',
    '',
    ...table(
      ['rating', 'tier'],
      f.tierMap.map((s) => [ratingKey(s.rating), s.tier]),
    ),
    'Event blocks by effective rating:',
    '',
    ...table(
      ['rating', 'blocks'],
      [...f.byRating].sort().map(([r, n]) => [r, n]),
    ),
    '## Left out',
    '',
    ...(f.leftOut.size === 0
      ? ['Nothing of the task was left out.', '']
      : table(
          ['what', 'rows'],
          [...f.leftOut].sort().map(([r, n]) => [r, n]),
        )),
    '## Ratings recorded',
    '',
    ...(f.changeSets.length === 0
      ? ['No rating of this collection was recorded.', '']
      : table(
          ['change set', 'when', 'author', 'what'],
          f.changeSets.map((c) => [c.id, isoTime(c.createdAt) ?? '', c.author, c.description]),
        )),
    '## Sources',
    '',
    ...table(
      ['file', 'rows', 'sha256'],
      f.inputs.map((i) => [i.name, i.records, i.sha256]),
    ),
  ].join('\n')
}

function halieCard(f: HalieFacts): string {
  const tiers = [...f.tiers].sort((a, b) => b - a)
  const q = (text: string): string => JSON.stringify(text)
  return [
    '---',
    `pretty_name: ${q(f.card.name)}`,
    `license: ${q(f.card.license)}`,
    'language:',
    '- en',
    'configs:',
    ...tiers.flatMap((tier, i) =>
      f.tables.map((t, j) =>
        [
          `- config_name: ${q(`tier_${tier}_${t.kind}`)}`,
          ...(i === 0 && j === 0 ? ['  default: true'] : []),
          '  data_files:',
          `  - split: "train"`,
          `    path: ${q(`data/tier-${tier}/${t.kind}.csv`)}`,
        ].join('\n'),
      ),
    ),
    '---',
    '',
    `# ${f.card.name}`,
    '',
    ...draftNotice(f),
    f.card.description,
    '',
    '## Files',
    '',
    `The HALIE ${f.task} task's standardised tables, one folder per tier under \`data/\`, each file ` +
      'with the imported header and the rows of that tier as imported.',
    '',
    '| file | tier | rows |',
    '|---|---|---|',
    ...f.files.map((file) => `| ${file.path} | ${file.tier} | ${file.rows} |`),
    '',
    'How the release was made and what it leaves out: `datasheet.md`. Inputs, settings and ' +
      'checksums: `manifest.json`. Machine-readable metadata (MLCommons Croissant 1.0): `croissant.json`.',
    '',
    `Licence: ${f.card.license}. Creator: ${f.card.creator}. Home page: ${f.card.url}`,
    '',
  ].join('\n')
}

function halieCroissant(f: HalieFacts): unknown {
  return croissantDataset(
    f.card,
    f.createdAt,
    f.files.map((file) => ({ ...file, encodingFormat: 'text/csv' })),
    f.files.map((file) => {
      const id = file.path.replace(/^data\//, '').replace(/\.csv$/, '')
      const kind = f.tables.find((t) => file.path.endsWith(`/${t.kind}.csv`))
      return {
        '@type': 'cr:RecordSet',
        '@id': id,
        name: id,
        description: `Tier ${file.tier}: the ${f.task} task's ${kind?.kind ?? ''} rows of this tier.`,
        // Cells are kept as imported text (lists in Python's repr, True/False, -1 sentinels).
        field: (kind?.header ?? []).map((column) => ({
          '@type': 'cr:Field',
          '@id': `${id}/${column}`,
          name: column,
          dataType: 'sc:Text',
          source: { fileObject: { '@id': file.path }, extract: { column } },
        })),
      }
    }),
  )
}

function halieManifest(
  f: HalieFacts,
  documents: readonly { path: string; bytes: number; sha256: string }[],
): unknown {
  return {
    manifestVersion: 1,
    winnow: { version },
    project: f.projectName,
    collection: { kind: 'halie', task: f.task },
    createdAt: isoTime(f.createdAt),
    draft: f.options.draft,
    ratingSnapshot: isoTime(f.ratingSnapshot),
    settings: {
      tierMap: f.tierMap,
      tiers: f.tiers,
      formats: ['csv'],
      scope: {
        kind: 'task',
        description: `the HALIE ${f.task} task`,
        asOf: isoTime(f.options.asOf),
      },
    },
    rowOrder: ROW_ORDER,
    inputs: f.inputs.map((i) => ({
      name: i.name,
      format: i.format,
      bytes: i.bytes,
      sha256: i.sha256,
      records: i.records,
      importedAt: isoTime(i.importedAt),
    })),
    changeSets: f.changeSets.map((c) => ({ ...c, createdAt: isoTime(c.createdAt) })),
    files: f.files.map((file) => ({
      path: file.path,
      format: file.format,
      tier: file.tier,
      rows: file.rows,
      bytes: file.bytes,
      sha256: file.sha256,
    })),
    documents,
    leftOut: Object.fromEntries([...f.leftOut].sort()),
  }
}
