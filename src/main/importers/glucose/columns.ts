import type { GlucoseFormat } from '../types'

/** The column layouts of the three GLUCOSE file families (FORMATS §1.1, §1.3). */

export const QUALITY_COLUMNS = ['worker_quality_rating', 'worker_quality_assessment'] as const
const ASSIGNMENT_COLUMN = 'assignment_id'

const DIMS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const

export const RELEASE_COLUMNS: readonly string[] = [
  'experiment_id',
  'story_id',
  'worker_id',
  'submission_time_normalized',
  'worker_quality_rating',
  'selected_sentence_index',
  'story',
  'selected_sentence',
  ...DIMS.flatMap((n) => [
    `${n}_specificNL`,
    `${n}_specificStructured`,
    `${n}_generalNL`,
    `${n}_generalStructured`,
  ]),
  'number_filled_in',
]

export function dimensionColumns(d: number): string[] {
  return [
    'unique_id',
    'story_id',
    'assignment_id',
    'worker_id',
    'submission_time_normalized',
    'worker_quality_assessment',
    'selected_sentence_index',
    'story',
    'selected_sentence',
    `${d}_specificNL`,
    `${d}_specificStructured`,
    `${d}_generalNL`,
    `${d}_generalNL_post_processed`,
    `${d}_generalStructured`,
    'modelPrompt_specific',
    'modelGoldOutput_specific',
    'modelPrompt_general',
    'modelGoldOutput_general',
  ]
}

export const TEST_COLUMNS: readonly string[] = [
  'unique_id',
  'story',
  'selected_sentence',
  'worker_ids',
  ...DIMS.flatMap((n) => [`${n}_specificNL`, `${n}_generalNL`]),
]

export interface HeaderMatch {
  format: GlucoseFormat
  /** The dimension of a per-dimension file. */
  dimension?: number
  /** Release files from the older layout carry an `assignment_id` column; its index. */
  assignmentColumn?: number
}

/** Which layout a header is, or null. */
export function detectFormat(header: readonly string[]): GlucoseFormat | null {
  return matchHeader(header)?.format ?? null
}

export function matchHeader(header: readonly string[], format?: GlucoseFormat): HeaderMatch | null {
  const names = header.map((h) => h.trim())
  if (format === undefined || format === 'glucose-release') {
    const assignmentColumn = names.indexOf(ASSIGNMENT_COLUMN)
    const rest = assignmentColumn === -1 ? names : names.filter((_, i) => i !== assignmentColumn)
    if (sameColumns(rest, RELEASE_COLUMNS)) {
      return assignmentColumn === -1
        ? { format: 'glucose-release' }
        : { format: 'glucose-release', assignmentColumn }
    }
  }
  if (format === undefined || format === 'glucose-dimension') {
    const d = headerDimension(names)
    if (d !== null && sameColumns(names, dimensionColumns(d))) {
      return { format: 'glucose-dimension', dimension: d }
    }
  }
  if ((format === undefined || format === 'glucose-test') && sameColumns(names, TEST_COLUMNS)) {
    return { format: 'glucose-test' }
  }
  return null
}

function headerDimension(names: readonly string[]): number | null {
  const m = /^(\d{1,2})_specificNL$/.exec(names[9] ?? '')
  const d = m ? Number(m[1]) : NaN
  return d >= 1 && d <= 10 ? d : null
}

function sameColumns(names: readonly string[], expected: readonly string[]): boolean {
  if (names.length !== expected.length) return false
  return expected.every(
    (e, i) => names[i] === e || (e === QUALITY_COLUMNS[0] && names[i] === QUALITY_COLUMNS[1]),
  )
}

const LABEL: Record<GlucoseFormat, string> = {
  'glucose-release': 'GLUCOSE release',
  'glucose-dimension': 'GLUCOSE per-dimension',
  'glucose-test': 'GLUCOSE test-set',
}

/** The layout a non-matching header was probably meant to be (by width, then first names). */
export function closestFormat(header: readonly string[]): GlucoseFormat | null {
  const n = header.length
  if (n === 49 || n === 50 || header[0] === 'experiment_id') return 'glucose-release'
  if (n === 18 || header[2] === 'assignment_id') return 'glucose-dimension'
  if (n === 24 || header[3] === 'worker_ids') return 'glucose-test'
  return null
}

export interface HeaderDifference {
  /** 0-based index of the first column that differs (to point the error at). */
  column: number
  message: string
}

/** Says which columns were expected and which were found. */
export function describeHeaderDifference(
  header: readonly string[],
  format: GlucoseFormat | null,
): HeaderDifference {
  const names = header.map((h) => h.trim())
  const found = `found ${names.length} column${names.length === 1 ? '' : 's'}: ${preview(names)}`
  if (format === null) {
    return {
      column: 0,
      message:
        `unrecognised header; expected a GLUCOSE release (49 columns: ${preview(RELEASE_COLUMNS)}), ` +
        `per-dimension (18 columns: ${preview(dimensionColumns(1))}) or test-set header ` +
        `(24 columns: ${preview(TEST_COLUMNS)}); ${found}`,
    }
  }
  const expected =
    format === 'glucose-release'
      ? RELEASE_COLUMNS
      : format === 'glucose-test'
        ? TEST_COLUMNS
        : dimensionColumns(headerDimension(names) ?? 1)
  const width = format === 'glucose-dimension' ? 18 : expected.length
  const problems: string[] = []
  let first = -1
  for (let i = 0; i < Math.max(expected.length, names.length) && problems.length < 3; i++) {
    const e = expected[i]
    const f = names[i]
    if (e === f || (e === QUALITY_COLUMNS[0] && f === QUALITY_COLUMNS[1])) continue
    if (first === -1) first = i
    const want =
      e === QUALITY_COLUMNS[0] ? `'${QUALITY_COLUMNS[0]}' or '${QUALITY_COLUMNS[1]}'` : `'${e}'`
    if (e === undefined) problems.push(`extra column ${i + 1} '${f}'`)
    else if (f === undefined) problems.push(`column ${i + 1} ${want} is missing`)
    else problems.push(`column ${i + 1}: expected ${want}, found '${f}'`)
  }
  const missing = expected.filter((e) => !names.includes(e) && e !== QUALITY_COLUMNS[0])
  const extra = names.filter((n) => !expected.includes(n) && n !== QUALITY_COLUMNS[1])
  const sets: string[] = []
  if (missing.length > 0) sets.push(`missing ${preview(missing, 4)}`)
  if (extra.length > 0) sets.push(`unexpected ${preview(extra, 4)}`)
  return {
    column: Math.max(0, Math.min(first, names.length - 1)),
    message:
      `header is not a ${LABEL[format]} header (expected ${width} columns, ${found}); ` +
      [...problems, ...sets].join('; '),
  }
}

function preview(names: readonly string[], max = 5): string {
  const shown = names.slice(0, max).map((n) => `'${n}'`)
  return names.length > max
    ? `${shown.join(', ')} … (${names.length - max} more)`
    : shown.join(', ')
}
