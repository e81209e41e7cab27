import { afterEach, describe, expect, it } from 'vitest'
import { drawAudit, drawMore } from '../../src/main/audits/audits'
import { drawIds, probing } from '../../src/main/audits/draw'
import { pluckAll } from '../../src/main/db/connection'
import { sql } from '../../src/main/db/sql'
import { useTempDir } from '../helpers/tmp'
import { type Sub, projectWith } from '../triage/fixture'

/** 200 submissions of 4 dimensions each (800 annotations) by four workers. */
const SUBS: Sub[] = Array.from({ length: 200 }, (_, i) => ({
  worker: ['W1', 'W2', 'W3', 'W4'][i % 4] as string,
  at: `2019-09-${String(1 + (i % 20)).padStart(2, '0')}`,
  dims: [1, 2, 6, 9],
}))

/**
 * A large query's audit is drawn by probing ids by the seed, not by reading every match; here
 * "large" is lowered to a hundred so a small project shows it.
 */
describe('an audit of a large query', () => {
  const tempDir = useTempDir()
  const from = probing.from
  afterEach(() => {
    probing.from = from
  })

  function project() {
    const db = projectWith(tempDir(), SUBS)
    probing.from = 100
    return db
  }

  it('is drawn by a few lookups, of the query’s annotations, the same for the same seed', () => {
    const db = project()
    const all = pluckAll<number>(db, sql`SELECT id FROM annotations`)
    const dimension2 = new Set(
      pluckAll<number>(db, sql`SELECT id FROM annotations WHERE dimension = 2`),
    )
    expect(all.length).toBe(800)
    const draw = drawIds(db, { dimensions: [2] }, 7, 10, new Set())
    expect(draw.ids).toHaveLength(10)
    expect(new Set(draw.ids).size).toBe(10)
    for (const id of draw.ids) expect(dimension2.has(id)).toBe(true)
    // Looked up: a few ids per annotation drawn, not the 800 a full read keys.
    const whole = drawIds(db, {}, 7, 10, new Set())
    expect(whole.ids).toHaveLength(10)
    expect(whole.probed).toBeGreaterThan(0)
    expect(whole.probed).toBeLessThan(all.length / 4)
    expect(drawIds(db, { dimensions: [2] }, 7, 10, new Set()).ids).toEqual(draw.ids)
    expect(drawIds(db, { dimensions: [2] }, 8, 10, new Set()).ids).not.toEqual(draw.ids)
  })

  it('extends a smaller draw of the same seed: drawing more repeats nothing', () => {
    const db = project()
    const fifteen = drawIds(db, {}, 3, 15, new Set()).ids
    const ten = drawIds(db, {}, 3, 10, new Set()).ids
    expect(ten).toEqual(fifteen.slice(0, 10))
    expect(drawIds(db, {}, 3, 5, new Set(ten)).ids).toEqual(fifteen.slice(10))

    const audit = drawAudit(db, { name: 'all', filter: {}, n: 10, seed: 3, author: 't' })
    expect(audit.items.map((i) => i.annotationId)).toEqual(ten)
    const more = drawMore(db, audit.result.id, 5, 't')
    expect(more.items.map((i) => i.annotationId)).toEqual(fifteen)
  })

  it('draws every annotation alike over many seeds', () => {
    const db = project()
    const ids = pluckAll<number>(
      db,
      sql`SELECT id FROM annotations WHERE worker_id = (
      SELECT id FROM workers WHERE external_id = 'W1')`,
    )
    expect(ids).toHaveLength(200)
    // 2,000 draws of 10 from 200 (seeds 0…1999): each annotation is expected 100 times.
    // Pearson's chi-square with 199 degrees of freedom stays below 264.9 with probability 0.999.
    const counts = new Map<number, number>()
    for (let seed = 0; seed < 2000; seed++)
      for (const id of drawIds(db, { workers: ['W1'] }, seed, 10, new Set()).ids)
        counts.set(id, (counts.get(id) ?? 0) + 1)
    const chi2 = ids.reduce((s, id) => s + ((counts.get(id) ?? 0) - 100) ** 2 / 100, 0)
    expect(chi2).toBeLessThan(264.9)
  })

  it('reads every match of a query the summary cannot count (a text filter)', () => {
    const db = project()
    const draw = drawIds(db, { text: 'the' }, 1, 5, new Set())
    expect(draw.probed).toBe(0)
  })
})
