import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { useTempDir } from '../helpers/tmp'
import { exportNow, readCsv, releaseProject, releaseSubmissions } from './helpers'

describe('release round trip', () => {
  const tempDir = useTempDir()

  it('exports an imported release CSV cell for cell, in the input order, per tier', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 1, max: 120 }),
        (seed, count) => {
          const dir = tempDir()
          const { db, csv } = releaseProject(dir, releaseSubmissions(count, seed))
          const out = join(dir, 'release')
          exportNow(db, { out })
          const [header, ...input] = readCsv(csv)
          const byTier = new Map<string, string[][]>()
          for (const row of input) {
            const tier = row[4] ?? ''
            byTier.set(tier, [...(byTier.get(tier) ?? []), row])
          }
          for (const tier of ['3', '2', '1']) {
            const [outHeader, ...rows] = readCsv(join(out, 'data', `tier-${tier}.csv`))
            expect(outHeader).toEqual(header)
            expect(rows).toEqual(byTier.get(tier) ?? [])
          }
        },
      ),
      { numRuns: 10 },
    )
  })

  it('writes RFC 4180 CSV: CRLF line ends, quotes only where needed', () => {
    const dir = tempDir()
    const { db } = releaseProject(dir, releaseSubmissions(40, 3))
    const out = join(dir, 'release')
    exportNow(db, { out, tiers: [3] })
    const text = readFileSync(join(out, 'data', 'tier-3.csv'), 'utf8')
    expect(text.endsWith('\r\n')).toBe(true)
    expect(text.split('\r\n')[0]).toMatch(/^experiment_id,story_id,worker_id,/)
    expect(text.replace(/\r\n/g, '')).not.toMatch(/\n/)
  })
})
