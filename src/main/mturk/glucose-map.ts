/**
 * Turns one pulled assignment into a GLUCOSE submission record for the writer. Form fields are
 * read through a map onto release column names (the default map is the identity: GLUCOSE HITs post
 * fields named like the release columns).
 *
 * An answer that does not parse, or parses but names no story, is still returned — never dropped —
 * so the assignment is kept with its raw XML and shown as flagged (`SubmissionFlag.AnswerUnparsed`
 * or `.StoryMissing`): `storyExternalId` is null (the submission is stored without a story, rather
 * than under one shared "unknown story"), it has no annotations or sentences, and `sentenceIndex`
 * is -1 when unknown. The raw answer keeps whatever the worker wrote.
 */
import type { Assignment, HIT } from '@aws-sdk/client-mturk'
import { AnnotationFlag, SubmissionFlag } from '../../shared/glucose/flags'
import { ESCAPED, annotationFlags } from '../../shared/glucose/grammar'
import type { ImportedAnnotation, StoredSubmission } from '../importers/types'
import { type ParsedAnswer, isHtmlEscapedQuestion, parseAnswer } from './answers'

const CELLS = ['specificNL', 'specificStructured', 'generalNL', 'generalStructured'] as const
const DIMENSIONS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const

/** Every column a field can be mapped onto. */
const ANSWER_COLUMNS: readonly string[] = [
  'experiment_id',
  'story_id',
  'story',
  'selected_sentence_index',
  'selected_sentence',
  'worker_quality_rating',
  'worker_quality_assessment',
  'number_filled_in',
  ...DIMENSIONS.flatMap((n) => CELLS.map((c) => `${n}_${c}`)),
]
const KNOWN_COLUMNS = new Set(ANSWER_COLUMNS)

/** A user mapping `form field → release column`. */
export type FieldMap = Readonly<Record<string, string>>

/** Problems of a user mapping, one message each; empty when it can be used. */
export function checkFieldMap(map: FieldMap): string[] {
  const problems: string[] = []
  const seen = new Map<string, string>()
  for (const [field, column] of Object.entries(map)) {
    if (!KNOWN_COLUMNS.has(column)) problems.push(`${field}: unknown column ${column}`)
    const earlier = seen.get(column)
    if (earlier !== undefined) problems.push(`${field} and ${earlier} both map to ${column}`)
    seen.set(column, field)
  }
  return problems
}

export interface MapOptions {
  /** Field → column; default: fields already carry the column names. */
  map?: FieldMap
  /** Position of the assignment in its pull (MTurk has no source line); default 0. */
  line?: number
}

/** Parses a pulled assignment's answer (HTML-unescaping unless the HIT is a QuestionForm) and maps it. */
export function mapAssignment(
  hit: Pick<HIT, 'Question'>,
  assignment: Assignment,
  options: MapOptions = {},
): StoredSubmission {
  const htmlEscaped = isHtmlEscapedQuestion(hit.Question)
  return toSubmission(assignment, parseAnswer(assignment.Answer, { htmlEscaped }), options)
}

export function toSubmission(
  assignment: Assignment,
  parsed: ParsedAnswer,
  options: MapOptions = {},
): StoredSubmission {
  const id = assignment.AssignmentId ?? ''
  const cells = parsed.ok ? columnsOf(parsed.fields, options.map) : new Map<string, string>()
  const cell = (column: string): string | undefined => cells.get(column)
  let flags = parsed.ok ? 0 : SubmissionFlag.AnswerUnparsed

  let storyId = cell('story_id')
  let indexText = cell('selected_sentence_index')
  const experiment = cell('experiment_id')?.split('__')
  if (experiment?.length === 2) {
    storyId ??= experiment[0]
    indexText ??= experiment[1]
    if (experiment[0] !== storyId || experiment[1] !== indexText) flags |= SubmissionFlag.IdMismatch
  }
  const storyText = cell('story') ?? ''
  if (parsed.ok && (!storyId || storyText === '')) flags |= SubmissionFlag.StoryMissing

  const sentenceIndex = /^[0-4]$/.test(indexText?.trim() ?? '') ? Number(indexText) : -1
  const selected = cell('selected_sentence')
  if (storyText !== '' && (sentenceIndex < 0 || !selected || !storyText.includes(selected))) {
    flags |= SubmissionFlag.SentenceMismatch
  }

  // Without a story id there is nothing to hang annotations on: the raw answer keeps them.
  const story = storyId?.trim() ? storyId : null
  const hasStory = story !== null
  const annotations = hasStory ? annotationsOf(cell) : []
  const declaredFilled = numberOrNull(cell('number_filled_in'))
  if (parsed.ok && hasStory) {
    if (annotations.length === 0) flags |= SubmissionFlag.NoDimension
    if (annotations.length === 1) flags |= SubmissionFlag.SingleDimension
  }
  if (hasStory && declaredFilled !== null && declaredFilled !== annotations.length) {
    flags |= SubmissionFlag.FilledMismatch
  }
  const problem = AnnotationFlag.UnknownConnector | AnnotationFlag.ExtraConnector
  if (annotations.some((a) => a.flags & problem)) flags |= SubmissionFlag.ConnectorProblem
  if (annotations.some((a) => a.flags !== 0)) flags |= SubmissionFlag.AnnotationFlagged

  return {
    sourceKey: `a:${id}`,
    assignmentId: id || null,
    workerExternalId: assignment.WorkerId ?? null,
    workerRef: null,
    storyExternalId: story,
    storyText,
    sentences:
      hasStory && sentenceIndex >= 0 && selected ? [{ index: sentenceIndex, text: selected }] : [],
    sentenceIndex,
    submittedAt: epochSeconds(assignment.SubmitTime),
    acceptedAt: epochSeconds(assignment.AcceptTime),
    fileRating: numberOrNull(cell('worker_quality_rating') ?? cell('worker_quality_assessment')),
    declaredFilled,
    line: options.line ?? 0,
    flags,
    raw: assignment.Answer ?? null,
    annotations,
  }
}

function columnsOf(fields: Record<string, string>, map: FieldMap | undefined): Map<string, string> {
  const cells = new Map<string, string>()
  for (const [field, value] of Object.entries(fields)) {
    const column = map ? map[field] : field
    if (column !== undefined && KNOWN_COLUMNS.has(column)) cells.set(column, value)
  }
  return cells
}

/** Blank = absent, empty or `escaped`; a dimension is filled when any of its cells is not blank. */
function annotationsOf(cell: (column: string) => string | undefined): ImportedAnnotation[] {
  const out: ImportedAnnotation[] = []
  for (const dimension of DIMENSIONS) {
    const raw = CELLS.map((c) => cell(`${dimension}_${c}`))
    if (raw.every(isBlank)) continue
    // Inside a filled dimension a missing NL reads as `escaped` (the shared grammar flags it as
    // partly escaped); a missing Structured is simply not there.
    const nl = (v: string | undefined): string => (v === undefined || v.trim() === '' ? ESCAPED : v)
    const structured = (v: string | undefined): string | null =>
      v === undefined || v.trim() === '' ? null : v
    const cells = {
      specificNL: nl(raw[0]),
      specificStructured: structured(raw[1]),
      generalNL: nl(raw[2]),
      generalStructured: structured(raw[3]),
    }
    out.push({ dimension, ...cells, flags: annotationFlags(dimension, cells) })
  }
  return out
}

function isBlank(v: string | undefined): boolean {
  return v === undefined || v.trim() === '' || v.trim() === ESCAPED
}

function numberOrNull(v: string | undefined): number | null {
  if (v === undefined || v.trim() === '') return null
  const n = Number(v)
  return Number.isFinite(n) ? n : null
}

/** An SDK date as epoch seconds (how the project stores times). */
export function epochSeconds(d: Date | undefined): number | null {
  return d === undefined ? null : Math.floor(d.getTime() / 1000)
}
