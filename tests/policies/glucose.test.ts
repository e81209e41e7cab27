import { describe, expect, it } from 'vitest'
import { type Db } from '../../src/main/db/connection'
import { writeSynthetic } from '../../src/main/importers/synthetic'
import { rateWorker } from '../../src/main/ratings/rate'
import { revertChangeSet } from '../../src/main/ratings/revert'
import { applyPolicy, dryRunPolicy } from '../../src/main/policies/run'
import { useTempDir } from '../helpers/tmp'
import { day, expectConsistent, newProject } from '../ratings/helpers'
import { ratingsSnapshot, shippedPolicy } from './helpers'

const source = shippedPolicy('glucose-cleanup.ts')
const fileName = 'policies/glucose-cleanup.ts'

interface Row {
  id: number
  worker: string | null
  submission: number
  rating: number | null
}

function rows(db: Db): Row[] {
  return db
    .prepare(
      `SELECT a.id, w.external_id AS worker, a.submission_id AS submission, a.rating
       FROM annotations a LEFT JOIN workers w ON w.id = a.worker_id ORDER BY a.id`,
    )
    .all() as Row[]
}

/** The cleanup of FORMATS.md §2 written out plainly over every annotation. */
function expectedMatrix(
  data: readonly Row[],
  p: { prolific: number; check: number; failed: readonly string[] },
): { from: number | null; to: number; annotations: number }[] {
  const threes = new Map<string, Set<number>>()
  for (const r of data) {
    if (r.rating === 3 && r.worker !== null) {
      const set = threes.get(r.worker) ?? new Set<number>()
      set.add(r.submission)
      threes.set(r.worker, set)
    }
  }
  const counts = new Map<string, number>()
  for (const r of data) {
    let to: number | null = null
    const n = r.worker === null ? 0 : (threes.get(r.worker)?.size ?? 0)
    if (r.rating === 3 && r.worker !== null && p.failed.includes(r.worker) && n >= p.check) to = 2
    else if (r.rating === -2) to = 2
    else if (r.rating === 1.5 || r.rating === 0 || r.rating === -1) to = 1
    if (to === null) continue
    const key = `${r.rating}>${to}`
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  return [...counts].map(([key, annotations]) => {
    const [from, to] = key.split('>')
    return { from: Number(from), to: Number(to), annotations }
  })
}

const byPair = (a: { from: number | null; to: number }, b: { from: number | null; to: number }) =>
  (b.from ?? -99) - (a.from ?? -99) || b.to - a.to

describe('the shipped GLUCOSE cleanup policy', () => {
  const tempDir = useTempDir()

  function project(): Db {
    const db = newProject(tempDir())
    writeSynthetic(db, { submissions: 3000, seed: 11 })
    // Rushing workers, for the −2 → 2 rule.
    const ids = db.prepare('SELECT id FROM workers ORDER BY id LIMIT 3').pluck().all() as number[]
    for (const workerId of ids) {
      rateWorker(db, { workerId, value: -2, from: day('2000-01-01'), author: 't' })
    }
    return db
  }

  it('demotes no 3 without a failed-review list and ends on {3, 2, 1}', async () => {
    const db = project()
    const before = rows(db)
    const report = await dryRunPolicy(db, { source, fileName })
    expect(report.params).toEqual({
      prolific: 200,
      check: 100,
      failedReview: [],
      minPrecision: null,
    })
    expect(report.rules.map((r) => r.annotations).slice(0, 2)).toEqual([0, 0])
    expect([...report.transitions].sort(byPair)).toEqual(
      expectedMatrix(before, { prolific: 200, check: 100, failed: [] }).sort(byPair),
    )
    expect(report.transitions.every((t) => t.from !== 3)).toBe(true)
    const applied = await applyPolicy(db, { source, fileName, basis: report.basis, author: 'lead' })
    expect(applied.changed).toBe(report.changed)
    const left = new Set(rows(db).map((r) => r.rating))
    expect([...left].filter((r) => r !== null).sort()).toEqual([1, 2, 3])
    expectConsistent(db)
    revertChangeSet(db, applied.changeSet ?? 0, { author: 'lead' })
    expect(rows(db)).toEqual(before)
  })

  it("demotes the 3s of failed reviewers above the check threshold, and no one else's", async () => {
    const db = project()
    const before = rows(db)
    // The workers with the most 3-rated submissions; thresholds scaled to the small project.
    const top = db
      .prepare(
        `SELECT w.external_id AS id, count(DISTINCT a.submission_id) AS n FROM annotations a
         JOIN workers w ON w.id = a.worker_id WHERE a.rating = 3 GROUP BY a.worker_id
         ORDER BY n DESC, id LIMIT 4`,
      )
      .all() as { id: string; n: number }[]
    expect(top.length).toBe(4)
    const [a, b, c, d] = top as [(typeof top)[0], (typeof top)[0], (typeof top)[0], (typeof top)[0]]
    const prolific = b.n - 1
    const check = d.n + 1
    // a, b: prolific; c: checked only if c.n ≥ check; d: below the check threshold.
    const failed = [a.id, c.id, d.id]
    const params = {
      prolific: String(prolific),
      check: String(check),
      failedReview: failed.join(','),
    }
    const report = await dryRunPolicy(db, { source, fileName, params })
    expect([...report.transitions].sort(byPair)).toEqual(
      expectedMatrix(before, { prolific, check, failed }).sort(byPair),
    )
    expect(report.rules[0]).toMatchObject({ workers: 1 })
    expect(report.rules[1]?.workers).toBe(c.n >= check && c.n <= prolific ? 1 : 0)
    const applied = await applyPolicy(db, {
      source,
      fileName,
      params,
      basis: report.basis,
      author: 'lead',
    })
    expect(applied.changed).toBe(report.changed)
    const after = rows(db)
    expect(after.filter((r) => r.worker === d.id && r.rating === 3).length).toBe(
      before.filter((r) => r.worker === d.id && r.rating === 3).length,
    )
    expect(after.filter((r) => r.worker === a.id && r.rating === 3).length).toBe(0)
    revertChangeSet(db, applied.changeSet ?? 0, { author: 'lead' })
    expect(ratingsSnapshot(db).map((r) => r.rating)).toEqual(before.map((r) => r.rating))
  })
})
