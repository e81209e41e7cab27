import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Db } from '../../src/main/db/connection'
import {
  applyEvaluated,
  applyPolicy,
  dryRunPolicy,
  evaluatePolicy,
} from '../../src/main/policies/run'
import { useTempDir } from '../helpers/tmp'
import { DAY, day, importSubmissions, newProject } from '../ratings/helpers'
import { policyText, ratingsSnapshot, tableCounts } from './helpers'

/**
 * Which annotations a policy's rules move is worked out in one pass over the annotations,
 * whatever the number of rules; these check it against the rules read one by one, in order.
 */

const WORKERS = ['W1', 'W2', 'W3', 'W4']
const SCALE = [3, 2, 1.5, 1, 0, -1, -2]
const DAYS = ['1969-12-31', '2019-09-01', '2019-09-02', '2019-09-03']
/** The most rules a policy may return. */
const MAX_RULES = 10_000

/** Submissions of every worker (and none) on every day (and undated, and before 1970), rated alike. */
function project(dir: string): Db {
  const db = newProject(dir)
  const specs = []
  let n = 0
  for (const worker of [...WORKERS, null]) {
    for (const at of [...DAYS.map((d) => day(d) + 3600 * (n % 24)), null]) {
      const rating = [...SCALE, null][n % 8] ?? null
      specs.push({ worker, at, fileRating: rating, dimensions: 1 + (n % 3) })
      n++
    }
  }
  importSubmissions(db, specs)
  return db
}

interface Where {
  workers?: string[]
  ratings?: (number | null)[]
  dimensions?: number[]
  submitted?: { from?: string; to?: string }
  filter?: { workers?: string[]; dimensions?: number[]; ratings?: (number | 'unrated')[] }
}
interface Rule {
  name: string
  where: Where
  to: number
}

interface Row {
  id: number
  worker: string | null
  rating: number | null
  dimension: number
  at: number | null
}

function selects(where: Where, a: Row): boolean {
  const { workers, ratings, dimensions, submitted, filter } = where
  if (workers && !(a.worker !== null && workers.includes(a.worker))) return false
  if (ratings && !ratings.includes(a.rating)) return false
  if (dimensions && !dimensions.includes(a.dimension)) return false
  const from = submitted?.from
  const to = submitted?.to
  if (from !== undefined && !(a.at !== null && a.at >= day(from))) return false
  if (to !== undefined && !(a.at !== null && a.at < day(to) + DAY)) return false
  if (filter) {
    if (filter.workers && !(a.worker !== null && filter.workers.includes(a.worker))) return false
    if (filter.dimensions && !filter.dimensions.includes(a.dimension)) return false
    if (filter.ratings && !filter.ratings.includes(a.rating ?? 'unrated')) return false
  }
  return true
}

/** The rules read one at a time, in order: how many annotations each takes. */
function takenOneByOne(rows: readonly Row[], rules: readonly Rule[]): number[] {
  const taken = rules.map(() => 0)
  for (const a of rows) {
    const i = rules.findIndex((r) => selects(r.where, a))
    if (i >= 0) taken[i] = (taken[i] ?? 0) + 1
  }
  return taken
}

const subset = <T>(values: readonly T[]) =>
  fc.subarray([...values], { minLength: 0, maxLength: values.length })
const whereArb: fc.Arbitrary<Where> = fc.record(
  {
    workers: subset(WORKERS),
    ratings: subset([...SCALE, null]),
    dimensions: subset([1, 2, 3]),
    submitted: fc.record(
      { from: fc.constantFrom(...DAYS), to: fc.constantFrom(...DAYS) },
      { requiredKeys: [] },
    ),
    filter: fc.oneof(
      fc.record({ workers: subset(WORKERS).filter((w) => w.length > 0) }),
      fc.record({ dimensions: subset([1, 2, 3]).filter((d) => d.length > 0) }),
      fc.record({ ratings: subset([...SCALE, 'unrated' as const]).filter((r) => r.length > 0) }),
    ),
  },
  { requiredKeys: [] },
)
const rulesArb: fc.Arbitrary<Rule[]> = fc
  .array(fc.tuple(whereArb, fc.constantFrom(...SCALE)), { minLength: 1, maxLength: 12 })
  .map((list) => list.map(([where, to], i) => ({ name: `r${i}`, where, to })))

describe('policy selection', () => {
  const tempDir = useTempDir()

  it('moves each annotation by its first rule, as reading the rules one by one does', async () => {
    const db = project(tempDir())
    const rows = db
      .prepare(
        `SELECT a.id, w.external_id AS worker, a.rating, a.dimension, a.submitted_at AS at
         FROM annotations a LEFT JOIN workers w ON w.id = a.worker_id`,
      )
      .all() as Row[]
    expect(rows.some((r) => r.at !== null && r.at < 0)).toBe(true)
    let run = 0
    await fc.assert(
      fc.asyncProperty(rulesArb, async (rules) => {
        const report = await dryRunPolicy(db, {
          source: policyText(`    return ${JSON.stringify(rules)}`),
          fileName: `random-${run++}.ts`,
        })
        expect(report.rules.map((r) => r.selected)).toEqual(takenOneByOne(rows, rules))
      }),
      { numRuns: 40, seed: 20261128 },
    )
  })

  it('refuses more than 10,000 rules, changing nothing', async () => {
    const db = project(tempDir())
    const before = { counts: tableCounts(db), ratings: ratingsSnapshot(db) }
    const many = (n: number) =>
      policyText(`    const out = []
    for (let i = 0; i < ${n}; i++) out.push({ name: 'r' + i, where: { workers: ['W' + (1 + (i % 4))], dimensions: [1 + (i % 3)] }, to: 1 })
    return out`)
    await expect(
      applyPolicy(db, { source: many(MAX_RULES + 1), fileName: 'many.ts', author: 'x' }),
    ).rejects.toMatchObject({
      info: {
        code: 'policy-rules',
        file: 'many.ts',
        message: `The policy returned 10,001 rules; at most 10,000 are allowed. One rule can select many workers, ratings, dimensions or days at once.`,
      },
    })
    expect({ counts: tableCounts(db), ratings: ratingsSnapshot(db) }).toEqual(before)
    const most = await dryRunPolicy(db, { source: many(MAX_RULES), fileName: 'most.ts' })
    expect(most.rules).toHaveLength(MAX_RULES)
    // Each worker's dimension goes to the first of its rules; the other 9,988 take nothing.
    expect(most.rules.filter((r) => r.selected > 0)).toHaveLength(12)
  })

  it('stops selecting at the time limit, changing nothing', async () => {
    const db = project(tempDir())
    const before = { counts: tableCounts(db), ratings: ratingsSnapshot(db) }
    const source = policyText(`    return [
      rule({ name: 'W1', where: { workers: ['W1'] }, to: 1 }),
      rule({ name: 'grid', where: { filter: { dimensions: [2] } }, to: 2 }),
    ]`)
    const evaluation = await evaluatePolicy(db, { source, fileName: 'slow.ts' })
    // The evaluation carries the limit to the selection; at 0 s nothing may be selected.
    let stopped: unknown = null
    try {
      applyEvaluated(db, {
        evaluation: { ...evaluation, timeMs: 0 },
        source,
        fileName: 'slow.ts',
        author: 'x',
      })
    } catch (error) {
      stopped = error
    }
    expect(stopped).toMatchObject({
      info: {
        code: 'policy-timeout',
        file: 'slow.ts',
        message:
          "Selecting the annotations the policy's 2 rules move took longer than its time limit (0 s) and was stopped.",
      },
    })
    expect({ counts: tableCounts(db), ratings: ratingsSnapshot(db) }).toEqual(before)
  })
})
