import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs'
import { dirname } from 'node:path'
import type { ImportedSubmission } from '../src/main/importers/types'
import { openProject } from '../src/main/db/connection'
import { createChangeSet } from '../src/main/db/queries/changeSets'
import { SubmissionWriter } from '../src/main/db/queries/submissions'

/**
 * A GLUCOSE-shaped project for the review benchmarks, written straight through `SubmissionWriter`
 * (the importer's writer) so tables, FTS and indexes are exactly what an import leaves. Used until
 * `winnow synth` can produce a million annotations; the shape follows FORMATS.md §1.5 and §2.
 */

export function rng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const NAMES = 'Tabatha Sam Jenny Tom Maria Carl Ana Joe Kim Lily Mark Nina Omar Paul Rita Steve Uma Vic Will Zoe Ben Cara Dan Eve Fay Gus Hal Ivy Jack Kate'.split(' ')
const VERBS = 'walked found bought lost painted cooked cleaned opened broke fixed visited called watched carried dropped planted sold baked washed read wrote played built chased fed climbed'.split(' ')
const NOUNS = 'dog cat car house park school store cake book phone garden door window kitchen ball bike tree river beach friend mother father teacher party game job office street bus train letter gift hat coat shoe lamp table chair cookie pizza bread apple pie song movie farm horse boat lake hill field'.split(' ')
const PLACES = 'at the park|in the kitchen|at school|near the lake|in the store|on the street|at home|at the beach|in the garden|at work'.split('|')
const EMOTIONS = 'happy sad angered stressed curiosity love fearful surprised amazed regret optimistic approval friendship success safety'.split(' ')
const CONNECTORS = ['>Causes/Enables>', '>Motivates>', '>Enables>', '>Enables>', '>Enables>', '>Causes/Enables>', '>Causes>', '>Results in>', '>Results in>', '>Results in>']
/** Probability that a submission fills dimension n (FORMATS.md §1.5, rows filled). */
const FILL = [0.85, 0.57, 0.47, 0.45, 0.34, 0.77, 0.57, 0.25, 0.2, 0.21]
const RATINGS = [3, 2, 2, 1.5, 1, 0, -1, -2]

export interface SynthShape {
  submissions: number
  workers: number
  stories: number
  seed: number
}

/** ≈ 4.7 annotations per submission: 213k submissions give about a million annotations. */
export const MILLION: SynthShape = { submissions: 213_000, workers: 400, stories: 20_000, seed: 7 }

function pick<T>(r: () => number, list: readonly T[]): T {
  return list[Math.floor(r() * list.length)] as T
}

function sentence(r: () => number): string {
  const name = pick(r, NAMES)
  return `${name} ${pick(r, VERBS)} the ${pick(r, NOUNS)} ${pick(r, PLACES)}.`
}

function statement(r: () => number, dim: number): string {
  const who = pick(r, NAMES)
  if (dim === 2 || dim === 7) return `${who} feel(s) ${pick(r, EMOTIONS)}`
  if (dim === 3 || dim === 8) return `${who} is ${pick(r, PLACES)}`
  if (dim === 4 || dim === 9) return `${who} possess(es) a ${pick(r, NOUNS)}`
  return `${who} ${pick(r, VERBS)} a ${pick(r, NOUNS)}`
}

function worker(i: number): string {
  return `A${(i * 2654435761 % 0xffffffff).toString(36).toUpperCase().padStart(7, '0')}SYN${i}`
}

/** Yields GLUCOSE-like submissions: skewed workers, rating timelines, dates Jun 2019 – Jan 2020. */
export function* synthSubmissions(shape: SynthShape): Generator<ImportedSubmission> {
  const r = rng(shape.seed)
  const stories = Array.from({ length: shape.stories }, (_, i) => ({
    id: `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`,
    sentences: Array.from({ length: 5 }, () => sentence(r)),
  }))
  // Zipf-like shares: worker k does ~1/(k+3) of the work; each has a window and a timeline.
  const weights = Array.from({ length: shape.workers }, (_, k) => 1 / (k + 3))
  const total = weights.reduce((a, b) => a + b, 0)
  const cumulative: number[] = []
  weights.reduce((acc, w, k) => (cumulative[k] = acc + w / total), 0)
  const start = Date.UTC(2019, 5, 1) / 1000
  const span = 245 * 86400
  const workers = weights.map((_, k) => {
    const first = start + Math.floor(r() * span * 0.7)
    const changes = [first, first + Math.floor(r() * 40) * 86400, first + Math.floor(40 + r() * 80) * 86400]
    const values = [-1, pick(r, RATINGS), pick(r, RATINGS)]
    return { id: worker(k), first, changes, values, unrated: k % 25 === 24 }
  })
  for (let i = 0; i < shape.submissions; i++) {
    const u = r()
    let k = cumulative.findIndex((c) => c >= u)
    if (k < 0) k = shape.workers - 1
    const w = workers[k]!
    const story = pick(r, stories)
    const idx = Math.floor(r() * 5)
    const submittedAt = Math.min(
      start + span,
      w.first + Math.floor(r() * (start + span - w.first) / 86400) * 86400,
    )
    let rating: number | null = null
    if (!w.unrated) for (let c = 0; c < 3; c++) if (w.changes[c]! <= submittedAt) rating = w.values[c]!
    const x = story.sentences[idx]!.replace(/\.$/, '')
    const annotations: ImportedSubmission['annotations'] = []
    for (let d = 1; d <= 10; d++) {
      if (r() >= FILL[d - 1]! && !(annotations.length < 2 && d >= 9)) continue
      const other = statement(r, d)
      const general = `Someone_A ${pick(r, VERBS)} Something_A`
      const connector = CONNECTORS[d - 1]!
      annotations.push({
        dimension: d,
        specificNL: d <= 5 ? `${other} ${connector} ${x}` : `${x} ${connector} ${other}`,
        specificStructured: null,
        generalNL: d <= 5 ? `${general} ${connector} Someone_A acts` : `Someone_A acts ${connector} ${general}`,
        generalStructured: null,
        flags: r() < 0.01 ? 1 : 0,
      })
    }
    const assignmentId = i % 2 === 0 ? `3SYN${i.toString(36).toUpperCase().padStart(26, '0')}` : null
    yield {
      sourceKey: assignmentId ? `a:${assignmentId}` : `e:${story.id}__${idx}|${w.id}|${i}`,
      assignmentId,
      workerExternalId: w.id,
      workerRef: null,
      storyExternalId: story.id,
      storyText: story.sentences.join(' '),
      sentences: [{ index: idx, text: story.sentences[idx]! }],
      sentenceIndex: idx,
      submittedAt,
      acceptedAt: null,
      fileRating: rating,
      declaredFilled: annotations.length,
      line: i + 2,
      flags: r() < 0.005 ? 1 : 0,
      raw: null,
      annotations,
    }
  }
}

/** Builds the project at `path` unless it is already there (the file is the cache). */
export function ensureSynthProject(path: string, shape: SynthShape, log = (_: string) => {}): void {
  if (existsSync(path)) return
  mkdirSync(dirname(path), { recursive: true })
  const partial = `${path}.partial`
  rmSync(partial, { force: true })
  const db = openProject(partial, { create: true })
  try {
    const started = Date.now()
    // One transaction, as an import does; the writer must live inside it.
    const counts = db.transaction(() => {
      const changeSet = createChangeSet(db, { kind: 'import', author: 'bench', description: 'synthetic' })
      const writer = new SubmissionWriter(db, changeSet.id, null)
      let n = 0
      for (const item of synthSubmissions(shape)) {
        writer.write(item)
        if (++n % 20_000 === 0) log(`  ${writer.counts.annotations} annotations…`)
      }
      writer.finish()
      return writer.counts
    })()
    log(`  wrote ${counts.annotations} annotations in ${((Date.now() - started) / 1000).toFixed(0)} s`)
    db.pragma('wal_checkpoint(TRUNCATE)')
  } finally {
    db.close()
  }
  renameSync(partial, path)
}
