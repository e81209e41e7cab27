import { SubmissionFlag } from '../../shared/glucose/flags'
import { annotationFlags } from '../../shared/glucose/grammar'
import { joinReferences } from '../../shared/glucose/references'
import { summaryFlags } from '../importers/glucose/context'
import type { ImportedAnnotation, ImportedSubmission } from '../importers/types'
import { createRandom, Distribution, type Random } from './random'
import { answer } from './statements'
import { generateStory, type Story } from './stories'
import {
  assignmentIdFor,
  generateWorkers,
  mturkWorkerId,
  ratingOn,
  type SynthWorker,
  workerCountFor,
} from './workers'

/** Realistic GLUCOSE-like submissions: same options and seed, same output. */

export interface SynthOptions {
  count: number
  seed: number | string
  /** First collection day; default 2019-08-30 (the dev sample's first day). */
  start?: Date
  /** Length of the collection in days; default 91 (three months). */
  days?: number
  /** `day` (as the CSVs carry, midnight UTC) or `second` (with accept times; HIT ≈ 5 min median). */
  timePrecision?: 'day' | 'second'
}

/** Rows filled per dimension in the release (FORMATS §1.5). */
export const FILL_RATES = [0.85, 0.57, 0.47, 0.45, 0.34, 0.77, 0.57, 0.25, 0.2, 0.21] as const
/** Test-set rows filled per dimension: 187/107/103/144/9/196/158/61/33/4 of 500. */
const TEST_FILL_RATES = [0.374, 0.214, 0.206, 0.288, 0.018, 0.392, 0.316, 0.122, 0.066, 0.008]
const DEFAULT_START = Date.UTC(2019, 7, 30)
const DAY = 86400
const DECLARED_WRONG = 0.002

export interface SynthWorld {
  workers: SynthWorker[]
  submissions: Generator<ImportedSubmission>
}

/** The workers (with their rating timelines, i.e. the unreleased commit dates) and the stream. */
export function generateWorld(opts: SynthOptions): SynthWorld {
  const start = (opts.start?.getTime() ?? DEFAULT_START) / 1000
  const days = opts.days ?? 91
  const workers = generateWorkers({
    count: workerCountFor(opts.count),
    seed: opts.seed,
    start,
    days,
  })
  return { workers, submissions: submissionStream(opts, workers, start) }
}

export function generateSubmissions(opts: SynthOptions): Generator<ImportedSubmission> {
  return generateWorld(opts).submissions
}

function* submissionStream(
  opts: SynthOptions,
  workers: SynthWorker[],
  start: number,
): Generator<ImportedSubmission> {
  const r = createRandom(`${opts.seed}:submissions`)
  const pickWorker = new Distribution(workers.map((w) => w.share))
  let made = 0
  while (made < opts.count) {
    const story = generateStory(r)
    for (let x = 0; x < 5 && made < opts.count; x++) {
      // About four workers per (story, sentence), never the same worker twice.
      const k = [3, 4, 4, 4, 5][r.int(5)] ?? 4
      const chosen = new Set<SynthWorker>()
      while (chosen.size < Math.min(k, workers.length)) chosen.add(workers[pickWorker.draw(r)]!)
      for (const w of chosen) {
        if (made >= opts.count) break
        yield submission(story, x, w, r, opts.timePrecision ?? 'day', start)
        made++
      }
    }
  }
}

function submission(
  story: Story,
  x: number,
  w: SynthWorker,
  r: Random,
  precision: 'day' | 'second',
  start: number,
): ImportedSubmission {
  const days = Math.round((w.lastDay - w.firstDay) / DAY)
  const day = w.firstDay + r.int(days + 1) * DAY
  const rating = ratingOn(w, day)
  const annotations: ImportedAnnotation[] = []
  for (const d of filledDimensions(r, FILL_RATES, rating === -2 ? 2 : 0)) {
    const cells = answer(story, x, d, r)
    annotations.push({ dimension: d, ...cells, flags: annotationFlags(d, cells) })
  }
  const declaredFilled = r.chance(DECLARED_WRONG) ? annotations.length + 1 : annotations.length
  let flags = summaryFlags(annotations, true)
  if (declaredFilled !== annotations.length) flags |= SubmissionFlag.FilledMismatch
  let submittedAt = day
  let acceptedAt: number | null = null
  if (precision === 'second') {
    // Log-normal HIT time: median 5 min 8 s, mean about 8 min.
    const duration = Math.round(Math.exp(Math.log(308) + 0.946 * r.normal()))
    submittedAt = day + 8 * 3600 + r.int(14 * 3600)
    acceptedAt = Math.max(start, submittedAt - duration)
  }
  const experimentId = `${story.id}__${x}`
  const assignmentId = assignmentIdFor(`${experimentId}|${w.id}`)
  return {
    sourceKey: `a:${assignmentId}`,
    assignmentId,
    workerExternalId: w.id,
    workerRef: null,
    storyExternalId: story.id,
    storyText: story.sentences.join(' '),
    sentences: [{ index: x, text: story.sentences[x] ?? '' }],
    sentenceIndex: x,
    submittedAt,
    acceptedAt,
    fileRating: rating,
    declaredFilled,
    line: 0,
    flags,
    raw: null,
    annotations,
  }
}

/**
 * Dimensions to fill, each with its own rate, at least two (the task demanded it); `exactly`
 * > 0 models a rushing worker (rated −2) who filled only that many.
 */
function filledDimensions(
  r: Random,
  rates: readonly number[],
  exactly: number,
  atLeast = 2,
): number[] {
  for (;;) {
    const dims = rates.flatMap((p, i) => (r.chance(p) ? [i + 1] : []))
    if (exactly > 0 && dims.length >= exactly) return dims.slice(0, exactly)
    if (exactly === 0 && dims.length >= atLeast) return dims
  }
}

/**
 * A test set like `test_set_answer_key.csv`: about 1.7 rows per story, three workers'
 * references per filled cell, all five sentences; a few dirty cells (an empty reference, two
 * connectors in one reference, a row with nothing filled).
 */
export function* generateTestSet(opts: {
  count: number
  seed: number | string
}): Generator<ImportedSubmission> {
  const r = createRandom(`${opts.seed}:test`)
  const workerIds = Array.from({ length: 40 }, (_, i) => mturkWorkerId(String(1000 + i * 7)))
  let made = 0
  while (made < opts.count) {
    const story = generateStory(r)
    const rows = [0, 1, 2, 3, 4].filter(() => r.chance(0.34))
    for (const x of rows.length > 0 ? rows : [r.int(5)]) {
      if (made >= opts.count) return
      yield testRow(story, x, r, workerIds)
      made++
    }
  }
}

/** `A >C> B` → `A >C> B >C> B`: a reference with two connectors. */
function repeatRightHalf(nl: string): string {
  const m = / >[^>]+> /.exec(nl)
  return m ? `${nl}${m[0]}${nl.slice(m.index + m[0].length)}` : nl
}

function testRow(
  story: Story,
  x: number,
  r: Random,
  workerIds: readonly string[],
): ImportedSubmission {
  const workers = new Set<string>()
  while (workers.size < 3) workers.add(r.pick(workerIds))
  const dims = r.chance(0.005) ? [] : filledDimensions(r, TEST_FILL_RATES, 0, 1)
  const annotations: ImportedAnnotation[] = dims.map((d) => {
    const refs = [0, 1, 2].map(() => answer(story, x, d, r))
    const specific = refs.map((a) => a.specificNL)
    const general = refs.map((a) => a.generalNL)
    if (r.chance(0.01)) general.splice(1, 0, '')
    if (r.chance(0.01)) general[0] = repeatRightHalf(general[0] ?? '')
    const cells = {
      specificNL: joinReferences(specific),
      specificStructured: null,
      generalNL: joinReferences(general),
      generalStructured: null,
    }
    return { dimension: d, ...cells, flags: annotationFlags(d, cells, { references: true }) }
  })
  const uniqueId = `${story.id}__${x}`
  return {
    sourceKey: `t:${uniqueId}`,
    assignmentId: null,
    workerExternalId: null,
    workerRef: joinReferences([...workers]),
    storyExternalId: story.id,
    storyText: story.sentences.join(' '),
    sentences: story.sentences.map((text, index) => ({ index, text })),
    sentenceIndex: x,
    submittedAt: null,
    acceptedAt: null,
    fileRating: null,
    declaredFilled: null,
    line: 0,
    flags: summaryFlags(annotations, false),
    raw: null,
    annotations,
  }
}
