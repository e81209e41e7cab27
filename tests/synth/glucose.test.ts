import { beforeAll, describe, expect, it } from 'vitest'
import type { ImportedSubmission } from '../../src/main/importers/types'
import {
  FILL_RATES,
  generateSubmissions,
  generateTestSet,
  generateWorld,
} from '../../src/main/synth/glucose'
import { assignmentIdFor, mturkWorkerId, ratingOn } from '../../src/main/synth/workers'
import { dimensionInfo } from '../../src/shared/glucose/dimensions'
import { AnnotationFlag, SubmissionFlag } from '../../src/shared/glucose/flags'
import { parseNL, parseStructured } from '../../src/shared/glucose/grammar'
import { splitReferences } from '../../src/shared/glucose/references'

const SCALE = [3, 2, 1.5, 1, 0, -1, -2]
const DAY = 86400

describe('generateSubmissions', () => {
  it('gives identical output for the same seed and different output for another', () => {
    const a = JSON.stringify([...generateSubmissions({ count: 300, seed: 5 })])
    expect(JSON.stringify([...generateSubmissions({ count: 300, seed: 5 })])).toBe(a)
    expect(JSON.stringify([...generateSubmissions({ count: 300, seed: 6 })])).not.toBe(a)
  })

  it('makes submissions that follow the GLUCOSE grammar, dimension by dimension', () => {
    const subs = [...generateSubmissions({ count: 2000, seed: 1 })]
    expect(subs).toHaveLength(2000)
    for (const s of subs) {
      expect(s.annotations.length).toBeGreaterThanOrEqual(2)
      expect(s.sentences.map((x) => x.index)).toEqual([s.sentenceIndex])
      expect(s.storyText.includes(s.sentences[0]!.text)).toBe(true)
      for (const a of s.annotations) {
        // The only dirt the generator leaves in single cells is the lost underscore.
        expect(a.flags & ~AnnotationFlag.UnderscoreLost).toBe(0)
        const info = dimensionInfo(a.dimension)
        for (const nl of [a.specificNL, a.generalNL])
          expect(parseNL(nl)?.connector).toBe(info.connector)
        const structured = parseStructured(a.specificStructured ?? '')!
        // The selected sentence is the free half, whose tags are numbered.
        const x = info.selectedSide === 'right' ? structured.right : structured.left
        expect(x[0]?.tag).toBe('subject')
        expect(x.some((slot) => slot.tag === 'verb')).toBe(true)
        expect(a.generalNL).toMatch(/Someone_[AB]|Something_[AB]|Somewhere_A/)
      }
    }
    const cells = subs.flatMap((s) => s.annotations.map((a) => a.specificNL))
    const doubled = cells.filter((c) => c.includes('  ')).length / cells.length
    expect(doubled).toBeGreaterThan(0.25)
    expect(doubled).toBeLessThan(0.55)
    expect(subs.some((s) => s.annotations.some((a) => a.generalStructured?.includes('||')))).toBe(
      true,
    )
  })

  it('fills dimensions at about the release rates', () => {
    const subs = [...generateSubmissions({ count: 5000, seed: 2 })]
    FILL_RATES.forEach((rate, i) => {
      const filled =
        subs.filter((s) => s.annotations.some((a) => a.dimension === i + 1)).length / subs.length
      expect(Math.abs(filled - rate)).toBeLessThan(0.04)
    })
  })

  it('gives about four submissions per (story, sentence), each from a different worker', () => {
    const groups = new Map<string, string[]>()
    for (const s of generateSubmissions({ count: 4000, seed: 3 })) {
      const key = `${s.storyExternalId}__${s.sentenceIndex}`
      groups.set(key, [...(groups.get(key) ?? []), s.workerExternalId ?? ''])
    }
    const sizes = [...groups.values()].map((g) => g.length)
    const mean = sizes.reduce((a, b) => a + b, 0) / sizes.length
    expect(mean).toBeGreaterThan(3.5)
    expect(mean).toBeLessThan(4.5)
    for (const g of groups.values()) expect(new Set(g).size).toBe(g.length)
  })
})

describe('synthetic workers', () => {
  const count = 65521
  let world: ReturnType<typeof generateWorld>
  let subs: ImportedSubmission[]
  beforeAll(() => {
    world = generateWorld({ count, seed: 11 })
    subs = [...world.submissions]
  })

  it('has a long tail: ~373 workers, the busiest near 12.8%, many under 70 HITs', () => {
    expect(world.workers).toHaveLength(373)
    const perWorker = new Map<string, number>()
    for (const s of subs)
      perWorker.set(s.workerExternalId ?? '', (perWorker.get(s.workerExternalId ?? '') ?? 0) + 1)
    const sorted = [...perWorker.values()].sort((a, b) => b - a)
    expect(sorted[0]! / count).toBeGreaterThan(0.11)
    expect(sorted[0]! / count).toBeLessThan(0.14)
    expect(sorted.filter((n) => n < 70).length).toBeGreaterThan(150)
    expect(subs.filter((s) => s.workerExternalId === '19').length).toBe(sorted[0])
  })

  it('rates each HIT with the worker’s rating in force that day', () => {
    const byId = new Map(world.workers.map((w) => [w.id, w]))
    for (const s of subs.slice(0, 5000)) {
      const w = byId.get(s.workerExternalId ?? '')!
      expect(s.fileRating).toBe(ratingOn(w, s.submittedAt!))
      expect(s.submittedAt! % DAY).toBe(0)
      expect(s.submittedAt!).toBeGreaterThanOrEqual(w.firstDay)
      expect(s.submittedAt!).toBeLessThanOrEqual(w.lastDay)
    }
  })

  it('enters workers at −1 and changes ratings over time on the collection scale', () => {
    for (const w of world.workers) {
      expect(w.timeline[0]?.value).toBe(-1)
      expect(w.timeline[0]?.from).toBe(w.firstDay)
      for (const c of w.timeline) expect(SCALE).toContain(c.value)
      for (let i = 1; i < w.timeline.length; i++)
        expect(w.timeline[i]!.from).toBeGreaterThan(w.timeline[i - 1]!.from)
    }
    const changed = world.workers.filter((w) => w.timeline.length > 1).length
    expect(changed / world.workers.length).toBeGreaterThan(0.6)
    const share = (v: number): number => subs.filter((s) => s.fileRating === v).length / count
    // Release tiers after the cleanup: 3 ≈ 28.4%, 2 ≈ 44.9% (−2 → 2), 1 ≈ 26.7%; a few busy
    // workers' timelines move these by several points from seed to seed.
    expect(share(3)).toBeGreaterThan(0.18)
    expect(share(3)).toBeLessThan(0.45)
    expect(share(2) + share(-2)).toBeGreaterThan(0.3)
    expect(share(2) + share(-2)).toBeLessThan(0.55)
    expect(share(-1)).toBeGreaterThan(0.08)
    expect(share(0)).toBeGreaterThan(0.02)
    expect(share(-2)).toBeGreaterThan(0)
    expect(share(-2)).toBeLessThan(0.03)
    const days = new Set(subs.map((s) => s.submittedAt))
    expect(days.size).toBeGreaterThan(85)
  })

  it('scales the worker count with the number of submissions', () => {
    expect(generateWorld({ count: 6552, seed: 1 }).workers).toHaveLength(37)
    expect(generateWorld({ count: 10, seed: 1 }).workers).toHaveLength(8)
  })

  it('can give second-precision times with accept times before submission', () => {
    for (const s of generateSubmissions({ count: 200, seed: 4, timePrecision: 'second' })) {
      expect(s.acceptedAt).not.toBeNull()
      expect(s.acceptedAt!).toBeLessThan(s.submittedAt!)
    }
  })
})

describe('synthetic ids', () => {
  it('derives distinct MTurk-style worker ids from integer ids', () => {
    const ids = Array.from({ length: 5000 }, (_, i) => mturkWorkerId(String(i + 1)))
    expect(new Set(ids).size).toBe(5000)
    for (const id of ids) expect(id).toMatch(/^A[A-Z0-9]{13}$/)
    expect(mturkWorkerId('A3QA0Y16Q4273V')).toBe('A3QA0Y16Q4273V')
  })

  it('derives 30-character assignment ids', () => {
    expect(assignmentIdFor('x')).toMatch(/^3[A-Z0-9]{29}$/)
    expect(assignmentIdFor('x')).toBe(assignmentIdFor('x'))
    expect(assignmentIdFor('x')).not.toBe(assignmentIdFor('y'))
  })
})

describe('generateTestSet', () => {
  it('makes rows with all five sentences and three references per filled cell', () => {
    const rows = [...generateTestSet({ count: 500, seed: 9 })]
    expect(rows).toHaveLength(500)
    const stories = new Set(rows.map((r) => r.storyExternalId))
    expect(rows.length / stories.size).toBeGreaterThan(1.3)
    expect(rows.length / stories.size).toBeLessThan(2.2)
    for (const r of rows) {
      expect(r.sentences).toHaveLength(5)
      expect(splitReferences(r.workerRef ?? '')).toHaveLength(3)
      expect(r.sourceKey).toBe(`t:${r.storyExternalId}__${r.sentenceIndex}`)
      for (const a of r.annotations) {
        expect(a.specificStructured).toBeNull()
        expect(splitReferences(a.specificNL)).toHaveLength(3)
      }
    }
    const flagged = rows.filter((r) => r.flags & SubmissionFlag.AnnotationFlagged).length
    expect(flagged).toBeGreaterThan(0)
    expect(flagged).toBeLessThan(60)
    const perDim = (d: number): number =>
      rows.filter((r) => r.annotations.some((a) => a.dimension === d)).length
    expect(perDim(1)).toBeGreaterThan(perDim(5))
    expect(perDim(6)).toBeGreaterThan(perDim(10))
  })
})
