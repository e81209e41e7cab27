import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Db } from '../../src/main/db/connection'
import { all, pluck } from '../../src/main/db/connection'
import { foldCountMoves } from '../../src/main/db/queries/annotationCounts'
import { countAnnotations, matchingAnnotationIds } from '../../src/main/db/queries/review/query'
import { sql } from '../../src/main/db/sql'
import { writeSynthetic } from '../../src/main/importers/synthetic'
import { applyPolicy } from '../../src/main/policies/run'
import { pastAnnotations } from '../../src/main/ratings/asOf'
import { recomputeAll } from '../../src/main/ratings/effective'
import { rateWorker } from '../../src/main/ratings/rate'
import { rateSelection } from '../../src/main/ratings/rateTargets'
import { revertChangeSet } from '../../src/main/ratings/revert'
import type { AnnotationFilter } from '../../src/shared/filter'
import { ANNOTATION_FLAG_NAMES } from '../../src/shared/glucose/flags'
import { policyText } from '../policies/helpers'
import { useTempDir } from '../helpers/tmp'
import { DAY, type SubmissionSpec, day, importSubmissions, newProject } from '../ratings/helpers'
import { foldSubmissionMoves } from '../../src/main/db/queries/submissionCounts'
import { submissionsPerDay } from '../../src/main/db/queries/dashboard'
import { median, triageReport } from '../../src/main/triage/report'
import { MINIMAL_DIMENSIONS } from '../../src/shared/contract/triage'
import { dayStart, formatDay } from '../../src/shared/filter'

/**
 * The summary of annotations (annotation_counts, annotation_day_counts) that totals are read from,
 * and the summaries of submissions the Today page and the dashboard read, stay equal to a plain
 * recount after every kind of write, and the totals and reports read from them equal the rows.
 */

const who = { author: 'test' }
const WORKERS = ['W1', 'W2', 'W3']
const SCALE = [3, 2, 1, 0, -1, -2]
const START = day('2019-09-01')

/**
 * The summaries as readers see them (with the moves not yet folded in), beside the same counts
 * grouped from the annotations.
 */
function recounts(db: Db) {
  const key = sql`IFNULL(worker_id, 0) AS w, CASE WHEN submitted_at IS NULL THEN -9007199254740991
    WHEN submitted_at >= 0 THEN submitted_at / 86400 ELSE (submitted_at + 1) / 86400 - 1 END AS d,
    dimension, IFNULL(rating, 9e999) AS r, flags`
  const moves = sql`SELECT worker_id AS w, day AS d, dimension, rating AS r, flags, n
    FROM annotation_count_moves`
  return {
    byWorker: all(
      db,
      sql`SELECT w, d, dimension, r, flags, sum(n) AS n FROM (
        SELECT worker_id AS w, day AS d, dimension, rating AS r, flags, n FROM annotation_counts
        UNION ALL ${moves})
      GROUP BY 1, 2, 3, 4, 5 HAVING sum(n) <> 0 ORDER BY 1, 2, 3, 4, 5`,
    ),
    plainByWorker: all(
      db,
      sql`SELECT *, count(*) AS n FROM (SELECT ${key} FROM annotations)
      GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`,
    ),
    byDay: all(
      db,
      sql`SELECT d, dimension, r, flags, sum(n) AS n FROM (
        SELECT day AS d, dimension, rating AS r, flags, n FROM annotation_day_counts
        UNION ALL SELECT d, dimension, r, flags, n FROM (${moves}))
      GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0 ORDER BY 1, 2, 3, 4`,
    ),
    plainByDay: all(
      db,
      sql`SELECT d, dimension, r, flags, count(*) AS n FROM (
        SELECT ${key} FROM annotations) GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
    ),
    byWorkerDimension: all(
      db,
      sql`SELECT w, dimension, sum(n) AS n FROM (
        SELECT worker_id AS w, dimension, n FROM annotation_worker_dimensions
        UNION ALL SELECT w, dimension, n FROM (${moves}))
      GROUP BY 1, 2 HAVING sum(n) <> 0 ORDER BY 1, 2`,
    ),
    plainByWorkerDimension: all(
      db,
      sql`SELECT IFNULL(worker_id, 0) AS w, dimension, count(*) AS n
      FROM annotations GROUP BY 1, 2 ORDER BY 1, 2`,
    ),
    moves: pluck<number>(db, sql`SELECT count(*) FROM annotation_count_moves`) ?? 0,
  }
}

/**
 * The summaries of submissions (submission_shapes, submission_work, submission_days) with their
 * moves not yet folded in, beside the same counts grouped from submissions and their annotations.
 */
function submissionRecounts(db: Db) {
  const moves = sql`SELECT day AS d, worker_id AS w, mask, work_seconds AS s, n
    FROM submission_count_moves`
  const none = -9007199254740991
  const day = (t: string) =>
    sql.raw(`CASE WHEN ${t} IS NULL THEN ${none}
      WHEN ${t} >= 0 THEN ${t} / 86400 ELSE (${t} + 1) / 86400 - 1 END`)
  // A part of a submission: its annotations of one day and worker.
  const parts = sql`SELECT ${day('a.submitted_at')} AS d, IFNULL(a.worker_id, 0) AS w,
      IFNULL(s.submitted_at - s.accepted_at, ${none}) AS s, sum(1 << a.dimension) AS mask
    FROM annotations a JOIN submissions s ON s.id = a.submission_id
    GROUP BY a.submission_id, 1, 2`
  const perSubmission = sql`SELECT ${day('submitted_at')} AS d FROM submissions`
  return {
    shapes: all(
      db,
      sql`SELECT d, w, mask, sum(n) AS n FROM (
        SELECT day AS d, worker_id AS w, mask, n FROM submission_shapes
        UNION ALL SELECT d, w, mask, n FROM (${moves}) WHERE mask <> 0)
      GROUP BY 1, 2, 3 HAVING sum(n) <> 0 ORDER BY 1, 2, 3`,
    ),
    plainShapes: all(
      db,
      sql`SELECT d, w, mask, count(*) AS n FROM (${parts}) GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    ),
    work: all(
      db,
      sql`SELECT d, w, s, sum(n) AS n FROM (
        SELECT day AS d, worker_id AS w, work_seconds AS s, n FROM submission_work
        UNION ALL SELECT d, w, s, n FROM (${moves}) WHERE mask <> 0)
      GROUP BY 1, 2, 3 HAVING sum(n) <> 0 ORDER BY 1, 2, 3`,
    ),
    plainWork: all(
      db,
      sql`SELECT d, w, s, count(*) AS n FROM (${parts}) GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    ),
    days: all(
      db,
      sql`SELECT d, sum(n) AS n FROM (SELECT day AS d, n FROM submission_days
        UNION ALL SELECT d, n FROM (${moves}) WHERE mask = 0)
      GROUP BY 1 HAVING sum(n) <> 0 ORDER BY 1`,
    ),
    plainDays: all(db, sql`SELECT d, count(*) AS n FROM (${perSubmission}) GROUP BY 1 ORDER BY 1`),
    moves: pluck<number>(db, sql`SELECT count(*) FROM submission_count_moves`) ?? 0,
  }
}

function expectSummaryExact(db: Db): void {
  const r = recounts(db)
  expect(r.byWorker).toEqual(r.plainByWorker)
  expect(r.byDay).toEqual(r.plainByDay)
  expect(r.byWorkerDimension).toEqual(r.plainByWorkerDimension)
  const s = submissionRecounts(db)
  expect(s.shapes).toEqual(s.plainShapes)
  expect(s.work).toEqual(s.plainWork)
  expect(s.days).toEqual(s.plainDays)
}

/**
 * The Today report's figures per worker, as they were computed from the range's annotations
 * before the summaries, beside the report's own.
 */
function expectTodayPlain(db: Db, from: string, to: string): void {
  const start = dayStart(from)
  const until = dayStart(to) + DAY
  const byWorker = new Map<number, { n: number; dims: number; minimal: number; works: number[] }>()
  const profiles = new Map<number, number[]>()
  // The range's submissions as the report read them before the summaries, a row merged into a
  // submission counted for its own worker.
  const submissions = all<{
    workerId: number
    dimensions: number
    mask: number
    workSeconds: number | null
  }>(
    db,
    sql`SELECT a.worker_id AS workerId, count(*) AS dimensions, sum(1 << a.dimension) AS mask,
          s.submitted_at - s.accepted_at AS workSeconds
        FROM annotations a JOIN submissions s ON s.id = a.id >> 4
        WHERE a.submitted_at >= ${start} AND a.submitted_at < ${until} AND a.worker_id IS NOT NULL
        GROUP BY a.id >> 4, a.worker_id`,
  )
  for (const s of submissions) {
    const w = byWorker.get(s.workerId) ?? { n: 0, dims: 0, minimal: 0, works: [] }
    w.n++
    w.dims += s.dimensions
    if (s.dimensions <= MINIMAL_DIMENSIONS) w.minimal++
    if (s.workSeconds !== null) w.works.push(s.workSeconds)
    byWorker.set(s.workerId, w)
    const p = profiles.get(s.workerId) ?? Array.from({ length: 10 }, () => 0)
    for (let d = 1; d <= 10; d++) if (s.mask & (1 << d)) p[d - 1] = (p[d - 1] ?? 0) + 1
    profiles.set(s.workerId, p)
  }
  const names = new Map(
    all<{ id: number; name: string }>(db, sql`SELECT id, external_id AS name FROM workers`).map(
      (w) => [w.id, w.name],
    ),
  )
  const plain = [...byWorker].map(([id, w]) => {
    const profile = profiles.get(id) ?? []
    const total = profile.reduce((a, b) => a + b, 0)
    return {
      workerId: names.get(id),
      submissions: w.n,
      avgDimensions: w.dims / w.n,
      medianWorkSeconds: median(w.works),
      minimalShare: w.minimal / w.n,
      dimensionProfile: profile.map((n) => n / total),
    }
  })
  const report = triageReport(db, { from, to }).workers.map((w) => ({
    workerId: w.workerId,
    submissions: w.submissions,
    avgDimensions: w.avgDimensions,
    medianWorkSeconds: w.medianWorkSeconds,
    minimalShare: w.minimalShare,
    dimensionProfile: w.dimensionProfile,
  }))
  const byName = (a: { workerId?: string }, b: { workerId?: string }) =>
    (a.workerId ?? '').localeCompare(b.workerId ?? '')
  expect(report.sort(byName)).toEqual(plain.sort(byName))
  const perDay = all<{ day: number; submissions: number }>(
    db,
    sql`SELECT (submitted_at / 86400) * 86400 AS day, count(*) AS submissions FROM submissions
        WHERE submitted_at IS NOT NULL GROUP BY 1 ORDER BY 1`,
  )
  expect(submissionsPerDay(db)).toEqual(perDay)
}

/** The rows a filter selects, counted from the rows themselves. */
function plainCount(db: Db, filter: AnnotationFilter): number {
  const ids = matchingAnnotationIds(db, filter)
  return ids ? (pluck<number>(db, sql`SELECT count(*) FROM (${ids})`) ?? 0) : 0
}

const subset = <T>(values: readonly T[]) => fc.subarray([...values], { minLength: 1 })
const dayText = fc
  .integer({ min: -2, max: 12 })
  .map((d) => new Date((START + d * DAY) * 1000).toISOString().slice(0, 10))
const filterArb: fc.Arbitrary<AnnotationFilter> = fc.record(
  {
    workers: subset(WORKERS),
    dimensions: subset([1, 2, 3, 4]),
    ratings: subset<number | 'unrated'>([...SCALE, 1.5, 'unrated']),
    from: dayText,
    to: dayText,
    flagged: fc.constant(true),
    flagKinds: subset(ANNOTATION_FLAG_NAMES.slice(0, 3)),
  },
  { requiredKeys: [] },
)

interface ImportSpec {
  worker: string | null
  at: number | null
  flags: number
  merge?: number
  firstDimension: number
  dimensions: number
  workSeconds: number | null
}

/**
 * A merged row has its submission's times; its worker may differ (a row of another worker under
 * the same key): its annotations then count for their own worker.
 */
function submissionSpec(spec: ImportSpec): SubmissionSpec {
  const at = spec.merge === undefined ? spec.at : START + spec.merge * DAY + 7200
  const acceptedAt = at === null || spec.workSeconds === null ? null : at - spec.workSeconds
  return spec.merge === undefined
    ? { ...spec, acceptedAt }
    : {
        ...spec,
        key: `merged-${spec.merge}`,
        at,
        acceptedAt,
      }
}

type Step =
  | { kind: 'import'; specs: ImportSpec[] }
  | { kind: 'rateWorker'; worker: number; value: number; from: number }
  | { kind: 'rateItems'; pick: number[]; value: number | null }
  | { kind: 'policy'; dimension: number; value: number }
  | { kind: 'revert'; pick: number }
  | { kind: 'recompute' }

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('import' as const),
    specs: fc.array(
      fc.record({
        worker: fc.option(fc.constantFrom(...WORKERS), { nil: null, freq: 6 }),
        at: fc.option(
          fc.integer({ min: -2, max: 12 }).map((d) => START + d * DAY + 3600),
          { nil: null, freq: 6 },
        ),
        flags: fc.constantFrom(0, 0, 1, 2, 5),
        // A row of an earlier submission, as per-dimension files add dimensions to it.
        merge: fc.option(fc.nat(3), { nil: undefined, freq: 3 }),
        firstDimension: fc.integer({ min: 1, max: 3 }),
        dimensions: fc.integer({ min: 1, max: 3 }),
        workSeconds: fc.option(fc.nat(900), { nil: null, freq: 4 }),
      }),
      { minLength: 1, maxLength: 12 },
    ),
  }),
  fc.record({
    kind: fc.constant('rateWorker' as const),
    worker: fc.nat(2),
    value: fc.constantFrom(...SCALE),
    from: fc.integer({ min: -3, max: 12 }).map((d) => START + d * DAY),
  }),
  fc.record({
    kind: fc.constant('rateItems' as const),
    pick: fc.array(fc.nat(), { minLength: 1, maxLength: 20 }),
    value: fc.option(fc.constantFrom(...SCALE), { nil: null, freq: 4 }),
  }),
  fc.record({
    kind: fc.constant('policy' as const),
    dimension: fc.integer({ min: 1, max: 4 }),
    value: fc.constantFrom(...SCALE),
  }),
  fc.record({ kind: fc.constant('revert' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('recompute' as const) }),
)

async function apply(db: Db, step: Step, run: number): Promise<void> {
  switch (step.kind) {
    case 'import':
      importSubmissions(db, step.specs.map(submissionSpec))
      return
    case 'rateWorker': {
      const worker = pluck<number>(
        db,
        sql`SELECT id FROM workers WHERE external_id = ${WORKERS[step.worker] ?? 'W1'}`,
      )
      if (worker !== undefined)
        rateWorker(db, { ...who, workerId: worker, value: step.value, from: step.from })
      return
    }
    case 'rateItems': {
      const ids = all<{ id: number }>(db, sql`SELECT id FROM annotations ORDER BY id`).map(
        (r) => r.id,
      )
      const annotationIds = [...new Set(step.pick.map((i) => ids[i % ids.length] as number))]
      rateSelection(db, { annotationIds, submissionIds: [] }, { ...who, value: step.value })
      return
    }
    case 'policy':
      await applyPolicy(db, {
        source: policyText(
          `    return [rule({ name: 'p', where: { dimensions: [${step.dimension}] }, to: ${step.value}, reason: 'test' })]`,
        ),
        fileName: `p${run}.ts`,
        author: 'test',
      })
      return
    case 'revert': {
      const sets = all<{ id: number }>(
        db,
        sql`SELECT id FROM change_sets WHERE kind IN ('manual', 'bulk', 'policy', 'revert')
            AND id NOT IN (SELECT reverts FROM change_sets WHERE reverts IS NOT NULL) ORDER BY id`,
      )
      const target = sets[step.pick % Math.max(1, sets.length)]
      if (target) revertChangeSet(db, target.id, who)
      return
    }
    case 'recompute':
      // The cache wiped, then rebuilt in bulk: the path that drops the summary's triggers.
      db.exec('UPDATE annotations SET rating = NULL, rating_source = 0')
      db.transaction(() => recomputeAll(db, { bulkFrom: 1 }))()
      return
  }
}

describe('the summary of annotations', () => {
  const tempDir = useTempDir()

  it('is built by a bulk import and counts what a filter selects', () => {
    const db = newProject(tempDir())
    // 4,000 submissions (about 19,000 annotations) into an empty project: a bulk write.
    writeSynthetic(db, { submissions: 4000, seed: 7 })
    expectSummaryExact(db)
    const days = submissionsPerDay(db)
    expectTodayPlain(db, formatDay(days[0]?.day ?? 0), formatDay(days.at(-1)?.day ?? 0))
    fc.assert(
      fc.property(filterArb, (filter) => {
        expect(countAnnotations(db, filter)).toBe(plainCount(db, filter))
      }),
      { numRuns: 200, seed: 29 },
    )
    db.close()
  })

  it('logs a worker rating as one move per summary key, and keeps counting later writes', () => {
    const db = newProject(tempDir())
    const specs = Array.from({ length: 60 }, (_, i) => ({
      worker: 'W1',
      at: START + (i % 3) * DAY,
      fileRating: 2,
      flags: i % 2,
    }))
    importSubmissions(db, specs)
    db.transaction(() => foldCountMoves(db))()
    const workerId = pluck<number>(db, sql`SELECT id FROM workers WHERE external_id = 'W1'`) ?? 0
    const result = rateWorker(db, { ...who, workerId, value: -1, from: START + DAY })
    expect(result.changed).toBe(80)
    // 40 submissions of two days, two dimensions, two flag values: 8 keys, each moved once from
    // 2 and once to -1, where a row per annotation and side would be 160.
    expect(recounts(db).moves).toBe(16)
    expectSummaryExact(db)
    // The trigger is back: a write that is not a rating is still counted.
    db.exec(`UPDATE annotations SET flags = 4 WHERE id = (SELECT min(id) FROM annotations)`)
    expectSummaryExact(db)
    db.close()
  })

  it('equals a plain recount after any sequence of writes, and as-of views count the past', async () => {
    let run = 0
    await fc.assert(
      fc.asyncProperty(
        fc.array(stepArb, { minLength: 1, maxLength: 6 }),
        filterArb,
        async (steps, filter) => {
          const db = newProject(tempDir())
          importSubmissions(db, [
            { worker: 'W1', at: START, fileRating: 2, flags: 1 },
            { worker: 'W2', at: START + DAY, fileRating: -1 },
            { worker: 'W3', at: null },
          ])
          const moments: number[] = []
          for (const step of steps) {
            await apply(db, step, run++)
            expectSummaryExact(db)
            expect(countAnnotations(db, filter)).toBe(plainCount(db, filter))
            expectTodayPlain(db, filter.from ?? '2019-08-30', filter.to ?? '2019-09-13')
            moments.push(Date.now())
            await new Promise((resolve) => setTimeout(resolve, 2))
          }
          // Folded in, the log is empty and the summaries alone are exact.
          db.transaction(() => foldCountMoves(db))()
          expect(recounts(db).moves).toBe(0)
          db.transaction(() => foldSubmissionMoves(db))()
          expect(submissionRecounts(db).moves).toBe(0)
          expectSummaryExact(db)
          // A past view counts its own ratings, not the summary's (the latest moment is the present).
          const rated = (filter.ratings ?? [2]).filter((r): r is number => r !== 'unrated')
          const unrated = filter.ratings?.includes('unrated') ? 1 : 0
          for (const asOf of moments) {
            const past = pastAnnotations(db, asOf)
            const plain = pluck<number>(
              db,
              sql`SELECT count(*) FROM ${past ?? sql`annotations`}
                  WHERE rating IN ${sql.list([...rated, 999])} OR (${unrated} AND rating IS NULL)`,
            )
            const ratings = filter.ratings ?? [2]
            expect(countAnnotations(db, { ratings }, past)).toBe(plain)
          }
          db.close()
        },
      ),
      { numRuns: 25, seed: 2029 },
    )
  })
})
