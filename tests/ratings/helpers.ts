import { join } from 'node:path'
import type { ImportedSubmission } from '../../src/main/importers/types'
import { type Db, openProject } from '../../src/main/db/connection'
import { createChangeSet } from '../../src/main/db/queries/changes/sets'
import { plainRatings } from '../helpers/plainRatings'
import { SubmissionWriter } from '../../src/main/db/queries/submissions'
import { withoutPendingTrigger } from '../../src/main/db/queries/bulk'
import { FileRatingLog } from '../../src/main/db/fileRatingLog'
import { reconstructFromLog } from '../../src/main/ratings/timelinesFromLog'
import { reconstructImportedRatings } from '../../src/main/ratings/importTimelines'

export const DAY = 86_400

/** Epoch seconds of a `YYYY-MM-DD` day (UTC midnight, as importers store day-precision times). */
export function day(text: string): number {
  return Date.parse(`${text}T00:00:00Z`) / 1000
}

export function newProject(dir: string, name = 'p.winnow'): Db {
  return openProject(join(dir, name), { create: true })
}

export interface SubmissionSpec {
  worker: string | null
  /** Epoch seconds, or null for no time. */
  at: number | null
  fileRating?: number | null
  dimensions?: number
  /** Source key; the same key twice merges into one submission, as per-dimension files do. */
  key?: string
  /** Import flags of each annotation (bits). */
  flags?: number
  /** The first of the consecutive dimensions filled (1 unless given). */
  firstDimension?: number
  /** Epoch seconds of the accept time, or null (the default) for none. */
  acceptedAt?: number | null
}

let serial = 0

function submission(spec: SubmissionSpec): ImportedSubmission {
  const n = ++serial
  const dims = spec.dimensions ?? 2
  return {
    sourceKey: spec.key ?? `t:${n}`,
    assignmentId: null,
    workerExternalId: spec.worker,
    workerRef: null,
    storyExternalId: `story-${n % 7}`,
    storyText: 'A. B. C. D. E.',
    sentences: [{ index: 0, text: 'A.' }],
    sentenceIndex: 0,
    submittedAt: spec.at,
    acceptedAt: spec.acceptedAt ?? null,
    fileRating: spec.fileRating ?? null,
    declaredFilled: dims,
    line: n,
    flags: 0,
    raw: null,
    annotations: Array.from({ length: dims }, (_, i) => ({
      dimension: i + (spec.firstDimension ?? 1),
      specificNL: `s${n}.${i}`,
      specificStructured: null,
      generalNL: `g${n}.${i}`,
      generalStructured: null,
      flags: spec.flags ?? 0,
    })),
  }
}

/**
 * Writes submissions the way an import does (one transaction, one import change set, then the
 * rating reconstruction) and returns each submission's annotation ids. `from: 'log'` builds the
 * timelines from the writer's log, as an import into a project without ratings does.
 */
export function importSubmissions(
  db: Db,
  specs: readonly SubmissionSpec[],
  { from = 'rows' }: { from?: 'rows' | 'log' } = {},
): { changeSet: number; annotations: number[][] } {
  return db.transaction(() => {
    const changeSet = createChangeSet(db, {
      kind: 'import',
      author: 'test',
      description: 'test import',
    })
    // Pages of a few rows, so that small imports read the log across pages.
    const log = from === 'log' ? new FileRatingLog(3) : undefined
    const writer = new SubmissionWriter(db, changeSet.id, null, log)
    const written = specs.map(submission)
    const write = (): void => {
      for (const s of written) writer.write(s)
      writer.finish()
    }
    if (log) withoutPendingTrigger(db, write)
    else write()
    const find = db
      .prepare(
        'SELECT a.id FROM annotations a JOIN submissions s ON s.id = a.submission_id WHERE s.source_key = ? ORDER BY a.id',
      )
      .pluck()
    const ids = written.map((s) => find.all(s.sourceKey) as number[])
    if (log) {
      reconstructFromLog(db, changeSet, 'test', log)
      log.close()
    } else reconstructImportedRatings(db, changeSet, 'test')
    return { changeSet: changeSet.id, annotations: ids }
  })()
}

export function workerId(db: Db, externalId: string): number {
  return db
    .prepare('SELECT id FROM workers WHERE external_id = ?')
    .pluck()
    .get(externalId) as number
}

/** Annotation id → cached effective rating. */
export function cached(db: Db): Map<number, number | null> {
  const rows = db.prepare('SELECT id, rating FROM annotations ORDER BY id').all() as {
    id: number
    rating: number | null
  }[]
  return new Map(rows.map((r) => [r.id, r.rating]))
}

export function ratingOf(db: Db, annotationId: number): { rating: number | null; source: number } {
  return db
    .prepare('SELECT rating, rating_source AS source FROM annotations WHERE id = ?')
    .get(annotationId) as {
    rating: number | null
    source: number
  }
}

/** The cache agrees with the plain correlated-subquery formulation, sources included. */
export function expectConsistent(db: Db): void {
  const plain = plainRatings(db)
  const cache = cached(db)
  for (const [id, rating] of plain) {
    if (cache.get(id) !== rating)
      throw new Error(`annotation ${id}: cache ${cache.get(id)} but plain ${rating}`)
  }
  const badSource = db
    .prepare(`SELECT count(*) FROM annotations WHERE (rating IS NULL) != (rating_source = 0)`)
    .pluck()
    .get() as number
  if (badSource > 0)
    throw new Error(`${badSource} rows with a rating_source that disagrees with rating`)
}

/** The effective ratings as they stood at `asOf`, read through the as-of relation. */
export function asOfRatings(db: Db, relation: string): Map<number, number | null> {
  const rows = db.prepare(`SELECT id, rating FROM ${relation} ORDER BY id`).all() as {
    id: number
    rating: number | null
  }[]
  return new Map(rows.map((r) => [r.id, r.rating]))
}

/** Worker A1 with three submissions: −1 on Sep 1 and Sep 3, 2 on Sep 10 (2019), from a file. */
export function workerA1Project(dir: string): { path: string; workerId: number } {
  const db = newProject(dir)
  importSubmissions(db, [
    { worker: 'A1', at: day('2019-09-01'), fileRating: -1 },
    { worker: 'A1', at: day('2019-09-03'), fileRating: -1 },
    { worker: 'A1', at: day('2019-09-10'), fileRating: 2 },
  ])
  const id = workerId(db, 'A1')
  db.close()
  return { path: join(dir, 'p.winnow'), workerId: id }
}
