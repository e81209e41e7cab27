import { createRandom, hashString, longTailShares, type Random } from './random'

/**
 * A synthetic worker population: long-tailed shares of the work (FORMATS §1.5), an active
 * window inside the collection period, and a rating timeline on the collection scale (§2):
 * enter at −1, promoted to 2 and to 3, some demoted or disqualified (0), rare −2 stints.
 */

interface RatingChange {
  /** Epoch seconds of the commit date (midnight UTC). */
  from: number
  value: number
}

export interface SynthWorker {
  /** Release-style id: a small integer as text. */
  id: string
  /** Share of all submissions. */
  share: number
  /** First and last active day (epoch seconds, midnight UTC). */
  firstDay: number
  lastDay: number
  /** Rating changes in commit-date order; the first is the entry at −1. */
  timeline: RatingChange[]
}

const DAY = 86400
/** Published head of the distribution: ids 19, 2, 197, 203, 3 with 12.8%, 9.19% … */
const HEAD_IDS = ['19', '2', '197', '203', '3']
const HEAD_SHARES = [0.128, 0.0919, 0.0461, 0.0385, 0.0349]

/** 373 contributing workers per 65,521 submissions, scaled; at least 8 so every HIT finds 5. */
export function workerCountFor(submissions: number): number {
  return Math.max(8, Math.round((373 * submissions) / 65521))
}

export function generateWorkers(opts: {
  count: number
  seed: number | string
  start: number
  days: number
}): SynthWorker[] {
  const r = createRandom(`${opts.seed}:workers`)
  // Drawing distinct workers per HIT caps the busiest ones; weights are raised to make up for it.
  const shares = longTailShares(opts.count, HEAD_SHARES, 1.3, 8).map((s) => s / (1 - 1.3 * s))
  const ids = workerIds(opts.count, r)
  return shares.map((share, rank) => {
    const heavy = rank < Math.max(5, opts.count / 18)
    // Heavy workers start early and stay; the tail arrives any time and often leaves soon.
    const first = heavy ? r.int(Math.min(12, opts.days)) : r.int(Math.max(1, opts.days - 5))
    const length = heavy ? opts.days : Math.round(5 + Math.exp(2 + r.next() * 2.2))
    const last = Math.min(opts.days - 1, first + length)
    const skill = heavy ? 0.55 + 0.45 * r.next() : 0.15 + 0.75 * r.next()
    const values = dailyRatings(last - first + 1, skill, r)
    const timeline: RatingChange[] = []
    values.forEach((v, i) => {
      if (timeline[timeline.length - 1]?.value !== v)
        timeline.push({ from: opts.start + (first + i) * DAY, value: v })
    })
    return {
      id: ids[rank] ?? String(rank + 1),
      share,
      firstDay: opts.start + first * DAY,
      lastDay: opts.start + last * DAY,
      timeline,
    }
  })
}

/** The worker's rating in force on `day` (the change with the latest commit date ≤ day). */
export function ratingOn(worker: SynthWorker, day: number): number {
  let value = worker.timeline[0]?.value ?? -1
  for (const c of worker.timeline) {
    if (c.from > day) break
    value = c.value
  }
  return value
}

/** One rating per active day: a promotion ladder with setbacks, then short overlay stints. */
function dailyRatings(days: number, skill: number, r: Random): number[] {
  const out = new Array<number>(days).fill(-1)
  let value = -1
  let day = 2 + r.int(8)
  while (day < days) {
    if (value === -1) value = r.chance(0.85) ? 2 : r.chance(0.5) ? 0 : -1
    else if (value === 2) value = r.chance(skill * 0.7) ? 3 : r.chance(0.25) ? 0 : 2
    else if (value === 3) value = r.chance(0.2) ? 2 : r.chance(0.05) ? 0 : 3
    else if (value === 0) value = r.chance(0.3) ? 2 : 0
    out.fill(value, day)
    day += value === 3 ? 15 + r.int(30) : 5 + r.int(20)
  }
  for (const [p, v, len] of [
    [0.12, -2, 5],
    [0.1, 1.5, 12],
    [0.05, 1, 8],
  ] as const) {
    if (days < 3 || !r.chance(p)) continue
    const s = 1 + r.int(days - 1)
    out.fill(v, s, Math.min(days, s + 1 + r.int(len)))
  }
  return out
}

/** De-identified integer ids like the release's: the head gets the published ids. */
function workerIds(count: number, r: Random): string[] {
  const space = Math.max(count * 3, 1100)
  const used = new Set(HEAD_IDS.slice(0, count))
  const ids = HEAD_IDS.slice(0, count)
  while (ids.length < count) {
    const id = String(1 + r.int(space))
    if (used.has(id)) continue
    used.add(id)
    ids.push(id)
  }
  return ids
}

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'

/**
 * The MTurk-style id (`A` + 13 of [A-Z0-9]) of a release-style integer id. Injective: the first
 * seven characters encode a bijective scramble of the integer.
 */
export function mturkWorkerId(id: string): string {
  if (!/^\d{1,9}$/.test(id)) return id
  const n = scramble(Number(id))
  const head = toBase36(n, 7)
  const tail = toBase36(hashString(`w${id}`), 6)
  return `A${head}${tail}`
}

/** A 30-character assignment id of [A-Z0-9] starting with 3, derived from a stable key. */
export function assignmentIdFor(key: string): string {
  let out = '3'
  for (let i = 0; out.length < 30; i++) out += toBase36(hashString(`${key}#${i}`), 6)
  return out.slice(0, 30)
}

function toBase36(n: number, width: number): string {
  let s = ''
  let x = n >>> 0
  for (let i = 0; i < width; i++) {
    s = (ALPHABET[x % 36] ?? '0') + s
    x = Math.floor(x / 36)
  }
  return s
}

/** A bijection on 32-bit integers (xorshift-multiply); 36^7 > 2^32 keeps it injective in base 36. */
function scramble(n: number): number {
  let x = n >>> 0
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b) >>> 0
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b) >>> 0
  return (x ^ (x >>> 16)) >>> 0
}
