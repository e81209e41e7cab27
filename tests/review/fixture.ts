import { join } from 'node:path'
import { type Db, all, openProject } from '../../src/main/db/connection'
import { createChangeSet } from '../../src/main/db/queries/changes/sets'
import { SubmissionWriter } from '../../src/main/db/queries/submissions'
import type { ImportedSubmission } from '../../src/main/importers/types'
import { indexSearchText } from '../../src/main/search/indexer'
import { generateSubmissions } from '../../src/main/synth/glucose'
import { sql } from '../../src/main/db/sql'
import { type AnnotationFilter, dayStart } from '../../src/shared/filter'
import { annotationFlagMask } from '../../src/shared/glucose/flags'
import { foldToken, searchPhrases } from '../../src/shared/textSearch'

const day = dayStart

/**
 * Writes submissions as an import does: one transaction, one import change set, then the text
 * into the full-text index (unless `indexText` is false: a query must then finish it).
 */
export function write(db: Db, submissions: Iterable<ImportedSubmission>, indexText = true): void {
  db.transaction(() => {
    const changeSet = createChangeSet(db, { kind: 'import', author: 'test', description: 'test' })
    const writer = new SubmissionWriter(db, changeSet.id, null)
    for (const s of submissions) writer.write(s)
    writer.finish()
  })()
  if (indexText) indexSearchText(db)
}

const STORIES: Record<string, string[]> = {
  'story-cat': [
    'Tom had a cat.',
    'The cat was hungry.',
    'Tom fed the cat.',
    'It purred.',
    'Tom smiled.',
  ],
  'story-bill': [
    'Ann went out.',
    'She paid 100% of the bill_total.',
    'The waiter said "thanks".',
    "It's Ann's 'treat' today.",
    'Ann left.',
  ],
  'story-dog': [
    'Sam has a dog.',
    'The dog ran away.',
    'Sam looked everywhere.',
    'He found it.',
    'Sam was happy.',
  ],
}

interface Spec {
  key: string
  worker: string | null
  story: keyof typeof STORIES
  x: number
  at: string | null
  rating: number | null
  flags?: number
  /** dimension → [specific, general] */
  cells: Record<number, [string, string]>
  cellFlags?: Record<number, number>
}

/** Hand-written rows with the edge cases the semantics tests name. */
const SPECS: Spec[] = [
  {
    key: 'a1',
    worker: 'A1ALPHA',
    story: 'story-cat',
    x: 1,
    at: '2019-09-01',
    rating: 3,
    cells: {
      1: [
        'Tom forgot to feed the cat >Causes/Enables> The cat was hungry',
        'Someone_A forgets Something_A >Causes/Enables> Something_A is hungry',
      ],
      2: [
        'The cat feel(s) hunger >Motivates> The cat was hungry',
        'Something_A feel(s) hunger >Motivates> Something_A is hungry',
      ],
      6: [
        'The cat was hungry >Causes/Enables> Tom fed the cat',
        'Something_A is hungry >Causes/Enables> Someone_A feeds Something_A',
      ],
    },
  },
  {
    key: 'a2',
    worker: 'A2BRAVO',
    story: 'story-cat',
    x: 1,
    at: '2019-09-02',
    rating: 2,
    cells: {
      1: [
        'Nobody fed the cat >Causes/Enables> The cat was hungry',
        'Someone_A does not feed Something_A >Causes/Enables> Something_A is hungry',
      ],
      6: [
        'The cat was hungry >Causes/Enables> The cat meowed "loudly"',
        'Something_A is hungry >Causes/Enables> Something_A meows',
      ],
    },
    cellFlags: { 6: 4 },
  },
  {
    key: 'a3',
    worker: 'A1ALPHA',
    story: 'story-bill',
    x: 1,
    at: '2019-09-03',
    rating: 2,
    cells: {
      1: [
        'Ann ate dinner >Causes/Enables> She paid 100% of the bill_total',
        'Someone_A eats >Causes/Enables> Someone_A pays',
      ],
      4: [
        "Ann possess(es) money (that's hers) >Enables> She paid",
        'Someone_A possess(es) Something_A >Enables> Someone_A pays',
      ],
    },
  },
  {
    key: 'a4',
    worker: 'X_%\'"Y',
    story: 'story-bill',
    x: 3,
    at: '2019-09-03',
    rating: 1.5,
    flags: 2,
    cells: {
      2: [
        "Ann feel(s) generous >Motivates> It's Ann's 'treat' today",
        'Someone_A feel(s) generous >Motivates> Someone_A treats',
      ],
      7: [
        "It's Ann's 'treat' today >Causes> Ann feel(s) happy",
        'Someone_A treats >Causes> Someone_A feel(s) happy',
      ],
    },
  },
  {
    key: 'a5',
    worker: 'A2BRAVO',
    story: 'story-dog',
    x: 1,
    at: '2019-09-05',
    rating: null,
    cells: {
      1: [
        'The gate was open >Causes/Enables> The dog ran away',
        'Somewhere_A is open >Causes/Enables> Something_A runs away',
      ],
      3: [
        'The dog is outside of the house >Enables> The dog ran away',
        'Something_A is outside of Somewhere_A >Enables> Something_A runs',
      ],
      8: [
        'The dog ran away >Results in> The dog is in the park',
        'Something_A runs away >Results in> Something_A is in Somewhere_A',
      ],
    },
    cellFlags: { 3: 1 },
  },
  {
    key: 'a6',
    worker: null,
    story: 'story-dog',
    x: 1,
    at: null,
    rating: null,
    cells: {
      1: ['The gate was open****The door was open****', 'Somewhere_A is open'],
      6: [
        'The dog ran away >Causes/Enables> Sam looked everywhere',
        'Something_A runs >Causes/Enables> Someone_A looks',
      ],
    },
  },
  {
    key: 'a7',
    worker: 'A3CHARLIE',
    story: 'story-dog',
    x: 4,
    at: '2019-09-04',
    rating: -1,
    cells: {
      1: [
        'Sam found the dog >Causes/Enables> Sam was happy',
        'Someone_A finds Something_A >Causes/Enables> Someone_A is happy',
      ],
      2: [
        'Sam feel(s) relief >Motivates> Sam was happy',
        'Someone_A feel(s) relief >Motivates> Someone_A is happy',
      ],
      5: [
        'Sam is "100%" sure >Enables> Sam was happy',
        'Someone_A is sure >Enables> Someone_A is happy',
      ],
    },
  },
]

function fromSpec(s: Spec): ImportedSubmission {
  const sentences = STORIES[s.story] ?? []
  const dims = Object.keys(s.cells)
    .map(Number)
    .sort((a, b) => a - b)
  return {
    sourceKey: `t:${s.key}`,
    assignmentId: s.key === 'a6' ? null : `ASSIGN${s.key.toUpperCase()}`,
    workerExternalId: s.worker,
    workerRef: null,
    storyExternalId: s.story,
    storyText: sentences.join(' '),
    sentences: sentences.map((text, index) => ({ index, text })),
    sentenceIndex: s.x,
    submittedAt: s.at === null ? null : day(s.at),
    acceptedAt: null,
    fileRating: s.rating,
    declaredFilled: dims.length,
    line: 1,
    flags: s.flags ?? 0,
    raw: null,
    annotations: dims.map((d) => ({
      dimension: d,
      specificNL: s.cells[d]?.[0] ?? '',
      specificStructured: null,
      generalNL: s.cells[d]?.[1] ?? '',
      generalStructured: null,
      flags: s.cellFlags?.[d] ?? 0,
    })),
  }
}

export function handProject(dir: string, indexText = true): Db {
  const db = openProject(join(dir, 'hand.winnow'), { create: true })
  write(db, SPECS.map(fromSpec), indexText)
  return db
}

/**
 * A few hundred GLUCOSE-like submissions from the synth generator (fixed seed); with `hand`, the
 * hand-written rows too (rows without worker, date or rating).
 */
export function synthProject(dir: string, count = 300, hand = false): Db {
  const db = openProject(join(dir, 'synth.winnow'), { create: true })
  write(db, generateSubmissions({ count, seed: 7 }))
  if (hand) write(db, SPECS.map(fromSpec))
  return db
}

/** Everything the reference needs about one annotation, read plainly. */
export interface Plain {
  id: number
  worker: string | null
  story: string
  dimension: number
  sentence: string
  specific: string
  general: string
  submittedAt: number | null
  rating: number | null
  flags: number
  submissionId: number
}

export function plainRows(db: Db): Plain[] {
  return all<Plain>(
    db,
    sql`SELECT a.id, w.external_id AS worker, st.external_id AS story, a.dimension,
          coalesce(se.text, '') AS sentence, t.specific_nl AS specific, t.general_nl AS general,
          a.submitted_at AS submittedAt, a.rating, a.flags, a.submission_id AS submissionId
        FROM annotations a JOIN stories st ON st.id = a.story_id
        JOIN annotation_texts t ON t.annotation_id = a.id
        LEFT JOIN workers w ON w.id = a.worker_id
        LEFT JOIN sentences se ON se.story_id = a.story_id AND se.idx = a.sentence_index
        ORDER BY a.id`,
  )
}

function tokensOf(text: string): string[] {
  return [...text.matchAll(/[\p{L}\p{N}\p{Co}]+/gu)].map((m) => foldToken(m[0]))
}

function hasPhrase(text: string, phrase: string[]): boolean {
  const t = tokensOf(text)
  for (let i = 0; i + phrase.length <= t.length; i++) {
    if (phrase.every((p, j) => t[i + j] === p)) return true
  }
  return false
}

/** The filter semantics written the slow, obvious way. */
export function reference(rows: Plain[], f: AnnotationFilter): number[] {
  return rows
    .filter((r) => {
      if (f.workers?.length && !f.workers.includes(r.worker ?? '\u0000')) return false
      if (f.stories?.length && !f.stories.includes(r.story)) return false
      if (f.dimensions?.length && !f.dimensions.includes(r.dimension)) return false
      if (f.sentence?.trim() && !r.sentence.toLowerCase().includes(f.sentence.trim().toLowerCase()))
        return false
      if (f.text?.trim()) {
        const phrases = searchPhrases(f.text)
        if (phrases.length === 0) return false
        if (!phrases.every((p) => hasPhrase(r.specific, p) || hasPhrase(r.general, p))) return false
      }
      if (f.from && (r.submittedAt === null || r.submittedAt < day(f.from))) return false
      if (f.to && (r.submittedAt === null || r.submittedAt >= day(f.to) + 86_400)) return false
      if (f.ratings?.length) {
        const ok = f.ratings.some((v) => (v === 'unrated' ? r.rating === null : r.rating === v))
        if (!ok) return false
      }
      if (f.flagged && r.flags === 0) return false
      if (f.flagKinds?.length && (r.flags & annotationFlagMask(f.flagKinds)) === 0) return false
      if (f.annotationIds?.length && !f.annotationIds.includes(r.id)) return false
      if (f.submissionIds?.length && !f.submissionIds.includes(r.submissionId)) return false
      return true
    })
    .map((r) => r.id)
}
