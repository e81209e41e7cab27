import { RELEASE_COLUMNS } from '../importers/glucose/columns'

/** One filled dimension of a submission, as the release prints it. */
export interface DimensionText {
  specificNL: string
  specificStructured: string
  generalNL: string
  generalStructured: string
}

/**
 * One row of a release file: a submission with its annotations of one tier. A submission whose
 * annotations sit in different tiers gives one row per tier, each with only that tier's
 * dimensions (the others `escaped`); when all share a tier (always, unless items were rated one
 * by one) the row is the submission as it was collected.
 */
export interface ReleaseRecord {
  submissionId: number
  experimentId: string
  storyId: string
  workerId: string
  /** `YYYYMMDD`, or empty when the submission time is unknown. */
  date: string
  tier: number
  sentenceIndex: number
  story: string
  sentence: string
  /** Index 1…10; undefined = not filled (or not in this tier). */
  dimensions: (DimensionText | undefined)[]
  /** Dimensions filled in this row. */
  filled: number
  /** The `number_filled_in` cell: the file's own count for a whole submission, else `filled`. */
  filledCell: number
}

const ESCAPED = 'escaped'

/** The 49 columns of the GLUCOSE release layout; `worker_quality_rating` holds the tier. */
export const RELEASE_LAYOUT: readonly string[] = RELEASE_COLUMNS

/** `YYYYMMDD` (UTC) of an epoch-seconds time. */
export function releaseDate(epochSeconds: number | null): string {
  if (epochSeconds === null) return ''
  return new Date(epochSeconds * 1000).toISOString().slice(0, 10).replace(/-/g, '')
}

/** The row's cells in layout order (numbers as text). */
export function recordCells(r: ReleaseRecord): string[] {
  const cells = [
    r.experimentId,
    r.storyId,
    r.workerId,
    r.date,
    String(r.tier),
    String(r.sentenceIndex),
    r.story,
    r.sentence,
  ]
  for (let d = 1; d <= 10; d++) {
    const t = r.dimensions[d]
    if (t) cells.push(t.specificNL, t.specificStructured, t.generalNL, t.generalStructured)
    else cells.push(ESCAPED, ESCAPED, ESCAPED, ESCAPED)
  }
  cells.push(String(r.filledCell))
  return cells
}
