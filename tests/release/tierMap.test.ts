import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openProject } from '../../src/main/db/connection'
import { countAnnotations } from '../../src/main/db/queries/review/count'
import { saveReleaseSettings } from '../../src/main/release/settings'
import { useTempDir } from '../helpers/tmp'
import { exportNow, readCsv, releaseProject, releaseSubmissions } from './helpers'

const tempDir = useTempDir()

describe('a release whose tier map is not the identity', () => {
  // Rating 3 goes to tier 1 and rating 2 to tier 3; rating 1 is left out. Neither a map read the
  // wrong way round (tier → rating) nor one ignored (rating = tier) gives these files.
  const tierMap = [
    { rating: 3, tier: 1 },
    { rating: 2, tier: 3 },
  ]

  it('puts each annotation in the tier its rating maps to, and names the tier in every file', () => {
    const dir = tempDir()
    const { db } = releaseProject(dir, releaseSubmissions(120, 3))
    const project = openProject(db)
    const byRating = (r: number): number => countAnnotations(project, { ratings: [r] })
    const [three, two, one] = [byRating(3), byRating(2), byRating(1)]
    saveReleaseSettings(project, db, { tierMap }, 'lee')
    project.close()
    expect(Math.min(three, two, one)).toBeGreaterThan(0)

    const out = join(dir, 'r')
    const result = exportNow(db, { out, formats: ['csv', 'jsonl'] })
    expect(result.files.map((f) => f.path).sort()).toEqual([
      'data/tier-1.csv',
      'data/tier-1.jsonl',
      'data/tier-3.csv',
      'data/tier-3.jsonl',
    ])
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as {
      files: { path: string; tier: number; annotations: number }[]
      leftOut: Record<string, number>
      settings: { tierMap: unknown }
    }
    const annotationsIn = (path: string): number | undefined =>
      manifest.files.find((f) => f.path === path)?.annotations
    expect(annotationsIn('data/tier-1.csv')).toBe(three)
    expect(annotationsIn('data/tier-3.csv')).toBe(two)
    expect(manifest.leftOut).toEqual({ 'rating 1 is not mapped to a tier': one })
    expect(manifest.files.map((f) => [f.path, f.tier]).sort()).toEqual([
      ['data/tier-1.csv', 1],
      ['data/tier-1.jsonl', 1],
      ['data/tier-3.csv', 3],
      ['data/tier-3.jsonl', 3],
    ])
    expect(manifest.settings.tierMap).toEqual([
      { rating: 2, tier: 3 },
      { rating: 3, tier: 1 },
    ])

    // The CSV's `worker_quality_rating` and the JSON Lines' `tier` hold the tier, not the rating.
    for (const tier of [1, 3]) {
      const [header = [], ...rows] = readCsv(join(out, 'data', `tier-${tier}.csv`))
      const column = header.indexOf('worker_quality_rating')
      expect(rows.length).toBeGreaterThan(0)
      expect(new Set(rows.map((r) => r[column]))).toEqual(new Set([String(tier)]))
      const tiers = readFileSync(join(out, 'data', `tier-${tier}.jsonl`), 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => (JSON.parse(line) as { tier: number }).tier)
      expect(new Set(tiers)).toEqual(new Set([tier]))
    }

    // The datasheet's map row by row: rating, label, tier.
    expect(result.datasheet).toMatch(/\| 3 \| [^|]+ \| 1 \|/)
    expect(result.datasheet).toMatch(/\| 2 \| [^|]+ \| 3 \|/)
    expect(result.datasheet).toMatch(/\| 1 \| [^|]+ \| left out \|/)
  })

  it('releases only the chosen tier, leaving the other mapped rating out as not chosen', () => {
    const dir = tempDir()
    const { db } = releaseProject(dir, releaseSubmissions(60, 5))
    const project = openProject(db)
    const three = countAnnotations(project, { ratings: [3] })
    const two = countAnnotations(project, { ratings: [2] })
    saveReleaseSettings(project, db, { tierMap }, 'lee')
    project.close()

    const out = join(dir, 'r')
    const result = exportNow(db, { out, tiers: [3] })
    expect(result.files.map((f) => f.path)).toEqual(['data/tier-3.csv'])
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as {
      files: { annotations: number }[]
      leftOut: Record<string, number>
    }
    expect(manifest.files[0]?.annotations).toBe(two)
    expect(manifest.leftOut['tier 1 not chosen']).toBe(three)
  })
})
