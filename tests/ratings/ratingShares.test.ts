import { describe, expect, it } from 'vitest'
import { createChangeSet } from '../../src/main/db/queries/changes/sets'
import { insertWorkerRating } from '../../src/main/db/queries/ratings/rows'
import { dashboard } from '../../src/main/dashboard/charts'
import { recomputeAll } from '../../src/main/ratings/effective'
import { ratingShares } from '../../src/main/ratings/ratingShares'
import { latestByWorker, ratingAt, segments } from '../../src/main/ratings/timeline'
import { useTempDir } from '../helpers/tmp'
import { cached, day, expectConsistent, importSubmissions, newProject, workerId } from './helpers'

describe("the dashboard's workers by rating", () => {
  const tempDir = useTempDir()

  /**
   * Worker RATED gets two ratings with one commit date, recorded at the same moment (one change
   * set writes both, as an import does): `first` then `second`. UNRATED has none.
   */
  function twoAtOnce(first: number, second: number) {
    const db = newProject(tempDir())
    const { annotations } = importSubmissions(db, [
      { worker: 'RATED', at: day('2019-09-05') },
      { worker: 'UNRATED', at: day('2019-09-05') },
    ])
    const worker = workerId(db, 'RATED')
    db.transaction(() => {
      const changeSet = createChangeSet(db, { kind: 'manual', author: 't', description: 'two' })
      for (const value of [first, second]) {
        insertWorkerRating(db, {
          workerId: worker,
          value,
          effectiveFrom: day('2019-09-01'),
          recordedAt: changeSet.at,
          author: 't',
          note: '',
          changeSetId: changeSet.id,
        })
      }
    })()
    recomputeAll(db)
    expectConsistent(db)
    return { db, rated: annotations[0] ?? [] }
  }

  it('count a worker with two ratings recorded at the same moment by the one the grid applies', () => {
    for (const [first, second] of [
      [1, 3],
      [3, 1],
    ] as const) {
      const { db, rated } = twoAtOnce(first, second)
      // The later row wins the tie, in the review grid's effective ratings and on the dashboard.
      for (const id of rated) expect(cached(db).get(id)).toBe(second)
      expect(ratingShares(db).workers).toEqual([
        { rating: second, n: 1 },
        { rating: null, n: 1 },
      ])
      expect(dashboard.ratings(db).workers).toEqual(ratingShares(db).workers)
      expect(ratingShares(db).annotations).toEqual([
        { rating: second, n: 2 },
        { rating: null, n: 2 },
      ])
      db.close()
    }
  })

  it('take the rule of the timeline: the last step, the rating at the end of time', () => {
    const rows = [
      { workerId: 1, id: 1, value: 1, effectiveFrom: 100, recordedAt: 5 },
      { workerId: 1, id: 2, value: 3, effectiveFrom: 100, recordedAt: 5 },
      { workerId: 1, id: 3, value: 0, effectiveFrom: 50, recordedAt: 9 },
      { workerId: 2, id: 5, value: 2, effectiveFrom: 100, recordedAt: 7 },
      { workerId: 2, id: 4, value: -1, effectiveFrom: 100, recordedAt: 6 },
    ]
    const latest = latestByWorker(rows)
    expect(latest).toEqual(
      new Map([
        [1, 3],
        [2, 2],
      ]),
    )
    for (const w of [1, 2]) {
      const own = rows.filter((r) => r.workerId === w)
      expect(latest.get(w)).toBe(segments(own).at(-1)?.value)
      expect(latest.get(w)).toBe(ratingAt(own, Number.MAX_SAFE_INTEGER))
    }
  })
})
