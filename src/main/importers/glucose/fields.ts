/** Typed GLUCOSE cells: pure parsers that return null for a value that is not of the type. */

/** Release ids are small integers (`19`); MTurk ids are `A` + upper-case letters and digits. */
const WORKER_ID = /^(?:\d{1,10}|A[A-Z0-9]{5,30})$/
/** ROCStories ids are UUIDs; any plain id without `__` (the experiment-id separator) is accepted. */
const STORY_ID = /^[A-Za-z0-9](?:[A-Za-z0-9.-]|_(?!_)){0,99}$/
const ASSIGNMENT_ID = /^[A-Za-z0-9]{1,64}$/
const RATING = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)$/

export const EXPECTED = {
  worker: 'a worker id: an integer like 19 or an MTurk id like A3QA0Y16Q4273V',
  story: 'a story id like 89c40aee-ed1f-4171-bce5-64c73bd6a1a9',
  assignment: 'an MTurk assignment id (letters and digits)',
  date: 'a date as YYYYMMDD (20191105) or, without the year, MDD/MMDD (917, 1128)',
  rating: 'a number such as 3, 2.0, 1.5 or -1',
  sentence: 'a sentence index from 0 to 4',
  count: 'a whole number of filled dimensions (0–10)',
  experiment: 'an id of the form <story id>__<sentence index>',
} as const

export function isWorkerId(s: string): boolean {
  return WORKER_ID.test(s)
}

export function isStoryId(s: string): boolean {
  return STORY_ID.test(s)
}

export function isAssignmentId(s: string): boolean {
  return ASSIGNMENT_ID.test(s)
}

export type ParsedDate =
  { kind: 'full'; epoch: number } | { kind: 'yearless'; month: number; day: number }

/** `YYYYMMDD`, or year-less `MDD`/`MMDD` (day = last two digits, month = the rest). */
export function parseGlucoseDate(s: string): ParsedDate | null {
  if (/^\d{8}$/.test(s)) {
    const epoch = utcDay(Number(s.slice(0, 4)), Number(s.slice(4, 6)), Number(s.slice(6, 8)))
    return epoch === null ? null : { kind: 'full', epoch }
  }
  if (/^\d{3,4}$/.test(s)) {
    const month = Number(s.slice(0, -2))
    const day = Number(s.slice(-2))
    // Leap day is checked against a leap year; the real year is checked once it is known.
    return utcDay(2000, month, day) === null ? null : { kind: 'yearless', month, day }
  }
  return null
}

/** Epoch seconds of midnight UTC, or null when the date does not exist. */
export function utcDay(year: number, month: number, day: number): number | null {
  if (year < 1970 || year > 2100 || month < 1 || month > 12 || day < 1) return null
  const ms = Date.UTC(year, month - 1, day)
  if (new Date(ms).getUTCDate() !== day) return null
  return ms / 1000
}

/** A rating number, or null for an empty cell; undefined when it is not a number. */
export function parseRating(s: string): number | null | undefined {
  if (s.trim() === '') return null
  if (!RATING.test(s.trim())) return undefined
  const n = Number(s)
  return Number.isFinite(n) ? n : undefined
}

export function parseSentenceIndex(s: string): number | null {
  return /^[0-4]$/.test(s) ? Number(s) : null
}

export function parseFilledCount(s: string): number | null {
  return /^\d{1,2}$/.test(s.trim()) ? Number(s) : null
}

/** `<story id>__<i>` → its parts, or null. */
export function splitExperimentId(s: string): { storyId: string; sentenceIndex: number } | null {
  const cut = s.lastIndexOf('__')
  if (cut <= 0) return null
  const storyId = s.slice(0, cut)
  const sentenceIndex = parseSentenceIndex(s.slice(cut + 2))
  if (sentenceIndex === null || !isStoryId(storyId)) return null
  return { storyId, sentenceIndex }
}
