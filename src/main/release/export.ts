import { mkdirSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import { version } from '../../../package.json'
import type {
  ParsedReleaseOptions,
  ReleaseFile,
  ReleaseFormat,
  ReleasePart,
  ReleaseResult,
} from '../../shared/contract/release'
import { describeFilter, isEmptyFilter } from '../../shared/filter'
import { joinReferences, splitReferences } from '../../shared/glucose/references'
import { ratingKey } from '../../shared/ratings/key'
import type { Db } from '../db/connection'
import {
  changeSetsUpTo,
  countReleaseSource,
  ratingSnapshot,
  releaseRows,
  releaseSource,
  sourceFileRecords,
  storiesRated,
  workerIdsById,
  workerPseudonyms,
} from '../db/queries/release/rows'
import { CancelledError } from '../jobs/cancel'
import { pastAnnotations } from '../ratings/asOf'
import { ratingScale } from '../ratings/scale'
import { auditResults } from './audits'
import { buildCard } from './card'
import { buildCroissant } from './croissant'
import { buildDatasheet } from './datasheet'
import { isTeamProject, membersOf } from '../db/queries/team/state'
import type { ReleaseFacts } from './facts'
import { checkOutputFolder, checkReleasePlace } from './folder'
import { finishRelease } from './finish'
import { buildManifest } from './manifest'
import { type StepHook, createPartial, discardPartial, removeLeftoverPartials } from './partial'
import { WorkerPseudonyms, pseudonymousFacts } from './pseudonyms'
import { type DimensionText, type ReleaseRecord, releaseDate } from './record'
import { cardOfRelease, refusePlaceholders } from './placeholders'
import { releasedTiers, tierMap } from './settings'
import { drawStorySplit } from './split'
import { StoryReader } from './stories'
import { ReleaseTally } from './tally'
import { type RecordWriter, type WrittenFile, openWriter } from './writers'

export interface ExportHooks {
  /** Annotations read so far, of `total`; `step` names a new step. */
  progress(done: number, total: number, step?: string): void
  cancelled(): boolean
  /** Each step of putting the release in place (and of removing leftovers), as it is done. */
  reached?: StepHook
}

const EXTENSIONS: Record<ReleaseFormat, string> = {
  csv: 'csv',
  jsonl: 'jsonl',
  parquet: 'parquet',
}

const PROGRESS_EVERY = 8192

/**
 * Writes a release folder: one file per tier, part and format under `data/`, then datasheet.md,
 * README.md, croissant.json and manifest.json. Everything is written into a hidden partial folder
 * beside the target and renamed into place at the end (partial.ts), so a cancelled or failed
 * export leaves nothing; what killed exports left there is removed first.
 */
export function exportRelease(
  db: Db,
  projectPath: string,
  options: ParsedReleaseOptions,
  hooks: ExportHooks,
): ReleaseResult {
  const project = resolve(projectPath)
  const reached = hooks.reached ?? (() => undefined)
  checkReleasePlace(options.out)
  removeLeftoverPartials(options.out, project, reached)
  checkOutputFolder(options.out, options.force, project)
  const card = cardOfRelease(db, projectPath, options)
  refusePlaceholders(card, options.draft)
  const steps = tierMap(db)
  const { lookup, tiers } = releasedTiers(steps, options)
  const split = options.split

  const partial = createPartial(options.out)
  const temp = partial.content
  const writers: RecordWriter[] = []
  try {
    mkdirSync(join(temp, 'data'))
    hooks.progress(0, 0, 'Selecting annotations')
    const source = releaseSource(db, options.filter, pastAnnotations(db, options.asOf))
    const total = countReleaseSource(db, source)
    const splitRatings = split
      ? steps.filter((s) => s.tier === split.tier).map((s) => s.rating)
      : []
    const candidates = split ? storiesRated(db, source, splitRatings) : []
    const stories = split
      ? drawStorySplit(candidates, split)
      : { test: new Set<string>(), dev: new Set<string>() }
    const workerNames = workerIdsById(db)
    const pseudonyms = options.pseudonymize
      ? new WorkerPseudonyms(workerNames, workerPseudonyms(db))
      : null
    const storyTexts = new StoryReader(db)

    const parts = (tier: number): ReleasePart[] => {
      if (!split) return ['all']
      if (tier !== split.tier) return ['train']
      return split.dev === undefined ? ['train', 'test'] : ['train', 'dev', 'test']
    }
    const files = new Map<
      string,
      {
        file: Omit<ReleaseFile, 'rows' | 'annotations' | 'bytes' | 'sha256'>
        writer: RecordWriter
      }[]
    >()
    for (const tier of tiers) {
      for (const part of parts(tier)) {
        const key = `${tier}|${part}`
        const list: {
          file: Omit<ReleaseFile, 'rows' | 'annotations' | 'bytes' | 'sha256'>
          writer: RecordWriter
        }[] = []
        for (const format of options.formats) {
          const path = `data/tier-${tier}${part === 'all' ? '' : `-${part}`}.${EXTENSIONS[format]}`
          const writer = openWriter(format, join(temp, path), {
            neutralizeFormulas: options.neutralizeFormulas,
            createdBy: `Winnow ${version}`,
          })
          writers.push(writer)
          list.push({ file: { path, format, tier, part }, writer })
        }
        files.set(key, list)
      }
    }

    const tally = new ReleaseTally()
    const workerLabel = (workerId: number | null, workerRef: string | null): string => {
      if (!pseudonyms)
        return (workerId === null ? null : workerNames.get(workerId)) ?? workerRef ?? ''
      if (workerId !== null) return pseudonyms.ofWorker(workerId)
      // A test-set row names its workers in a list; one not in the project has no pseudonym.
      if (workerRef === null) return ''
      return joinReferences(splitReferences(workerRef).map((w) => pseudonyms.of(w) ?? '?'))
    }

    // The annotations of the submission being read, by tier.
    let current: {
      base: Omit<ReleaseRecord, 'tier' | 'dimensions' | 'filled' | 'filledCell'>
      byTier: Map<number, (DimensionText | undefined)[]>
      declared: number | null
      /** The submission's annotations: counted by the query, or here while reading all of them. */
      total: number | null
    } | null = null
    let reading = -1
    let read = 0
    const emit = (): void => {
      if (!current) return
      const total = current.total ?? read
      for (const tier of [...current.byTier.keys()].sort((a, b) => b - a)) {
        const dimensions = current.byTier.get(tier) ?? []
        const filled = dimensions.reduce((n, d) => n + (d ? 1 : 0), 0)
        // A row holding its whole submission keeps the file's count, as written (even where it
        // disagrees, which the import flagged); a part of one counts its own dimensions.
        const filledCell = current.declared !== null && filled === total ? current.declared : filled
        const record: ReleaseRecord = { ...current.base, tier, dimensions, filled, filledCell }
        let part: ReleasePart = 'all'
        if (split) {
          const held = stories.test.has(record.storyId)
            ? 'test'
            : stories.dev.has(record.storyId)
              ? 'dev'
              : null
          if (held && tier !== split.tier) {
            tally.left(`story held out for ${held} (tier ${tier})`, filled)
            continue
          }
          part = held ?? 'train'
        }
        tally.kept(record, part)
        for (const { writer } of files.get(`${tier}|${part}`) ?? []) writer.write(record)
      }
      current = null
    }

    hooks.progress(0, total, 'Writing tier files')
    let done = 0
    for (const row of releaseRows(db, source)) {
      const [
        ,
        submissionId,
        dimension,
        rating,
        workerId,
        workerRef,
        storyId,
        sentenceIndex,
        submittedAt,
      ] = row
      if (reading !== submissionId) {
        emit()
        reading = submissionId
        read = 0
      }
      read++
      tally.rated(ratingKey(rating))
      const tier = rating === null ? undefined : lookup.get(rating)
      if (tier === undefined) {
        tally.left(leftOutReason(rating, steps))
      } else {
        if (!current) {
          const story = storyTexts.story(storyId)
          const storyExternal = story?.externalId ?? ''
          current = {
            base: {
              submissionId,
              experimentId: `${storyExternal}__${sentenceIndex}`,
              storyId: storyExternal,
              workerId: workerLabel(workerId, workerRef),
              date: releaseDate(submittedAt),
              sentenceIndex,
              story: story?.text ?? '',
              sentence: story?.sentences[sentenceIndex] ?? '',
            },
            byTier: new Map(),
            declared: row[13],
            total: row[14],
          }
        }
        let dims = current.byTier.get(tier)
        if (!dims) current.byTier.set(tier, (dims = []))
        dims[dimension] = {
          specificNL: row[9],
          specificStructured: row[10] ?? '',
          generalNL: row[11],
          generalStructured: row[12] ?? '',
        }
      }
      done++
      if (done % PROGRESS_EVERY === 0) {
        if (hooks.cancelled())
          throw new CancelledError('Export cancelled; no release folder was written.')
        hooks.progress(done, total)
      }
    }
    emit()
    hooks.progress(done, total, 'Finishing files')

    const written: ReleaseFile[] = []
    for (const list of files.values()) {
      for (const { file, writer } of list) {
        const result: WrittenFile = writer.close()
        written.push({ ...file, ...result })
      }
    }
    writers.length = 0
    written.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))

    const changeSets = changeSetsUpTo(db, options.asOf)
    const members = isTeamProject(db)
      ? membersOf(
          db,
          changeSets.map((c) => c.id),
        )
      : undefined
    const recorded: ReleaseFacts = {
      winnowVersion: version,
      projectName: basename(projectPath).replace(/\.winnow$/, ''),
      createdAt: Date.now(),
      card,
      options,
      tierMap: steps,
      tiers,
      scale: ratingScale(db),
      files: written,
      tally,
      split: split
        ? { candidates: new Set(candidates).size, test: stories.test.size, dev: stories.dev.size }
        : null,
      changeSets,
      ...(members === undefined ? {} : { teamMembers: members }),
      audits: auditResults(db, options.asOf),
      inputs: sourceFileRecords(db),
      ratingSnapshot: ratingSnapshot(db, options.asOf),
      scope:
        options.filter && !isEmptyFilter(options.filter)
          ? describeFilter(options.filter)
          : 'every annotation of the project',
    }
    const facts = pseudonyms ? pseudonymousFacts(recorded, pseudonyms) : recorded
    const datasheet = buildDatasheet(facts)
    const manifest = finishRelease(
      db,
      partial,
      { out: options.out, force: options.force, projectPath: project, createdAt: facts.createdAt },
      {
        datasheet,
        card: buildCard(facts),
        croissant: buildCroissant(facts),
        manifest: (documents) => buildManifest(facts, documents),
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
    for (const writer of writers) {
      try {
        writer.close()
      } catch {
        // The folder is removed below; a writer that cannot finish changes nothing.
      }
    }
    discardPartial(partial)
    throw error
  }
}

export function leftOutReason(
  rating: number | null,
  steps: readonly { rating: number; tier: number }[],
): string {
  if (rating === null) return 'unrated'
  const step = steps.find((s) => s.rating === rating)
  return step
    ? `tier ${step.tier} not chosen`
    : `rating ${ratingKey(rating)} is not mapped to a tier`
}
