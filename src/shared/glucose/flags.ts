/**
 * Problems found at import, as bits. Annotation bits sit in the low half and submission bits in
 * the high half, so a union of both still reads unambiguously.
 */

export const AnnotationFlag = {
  /** An NL cell (or test-set reference) has no `>Connector>` to split on. */
  NlUnparsed: 1 << 0,
  /** A Structured cell is not a sequence of `{text}_[tag]` slots around a connector. */
  StructuredUnparsed: 1 << 1,
  /** A known connector, but not the one this dimension uses. */
  ConnectorMismatch: 1 << 2,
  /** NL and Structured say different things after whitespace and `||x||`→`(x)` normalisation. */
  NlStructuredDisagree: 1 << 3,
  /** NL and Structured differ only by a lost underscore in a variable (`Something A`). */
  UnderscoreLost: 1 << 4,
  /** More than one connector in a cell. */
  ExtraConnector: 1 << 5,
  /** A `>…>` connector that GLUCOSE never uses. */
  UnknownConnector: 1 << 6,
  /** The answer is hidden (`answered`, test set without answers). */
  Hidden: 1 << 7,
  /** Some of the dimension's cells are `escaped` and some are not. */
  PartlyEscaped: 1 << 8,
  /** A test-set cell with other than 3 references. */
  ReferenceCount: 1 << 9,
  /** A test-set cell with an empty reference (`********`). */
  EmptyReference: 1 << 10,
} as const

export const SubmissionFlag = {
  /** Declared `number_filled_in` differs from the count of filled dimensions. */
  FilledMismatch: 1 << 16,
  /** The same key occurred earlier in the file; this row got `#2`, `#3` … */
  DuplicateKey: 1 << 17,
  /** The assignment shows only one dimension (the task demanded two). */
  SingleDimension: 1 << 18,
  /** No dimension filled at all. */
  NoDimension: 1 << 19,
  /** Some annotation has an unknown or extra connector. */
  ConnectorProblem: 1 << 20,
  /** Some answer cell is hidden (`answered`). */
  AnswersHidden: 1 << 21,
  /** The selected sentence does not match the story at the selected index. */
  SentenceMismatch: 1 << 22,
  /** `experiment_id` / `unique_id` does not agree with the story id and sentence index. */
  IdMismatch: 1 << 23,
  /** Some annotation carries a flag. */
  AnnotationFlagged: 1 << 24,
  /** An MTurk answer (its QuestionFormAnswers XML or taskAnswers JSON) does not parse; kept raw. */
  AnswerUnparsed: 1 << 25,
  /** An MTurk answer parsed but names no story: stored without story or annotations, kept raw. */
  StoryMissing: 1 << 26,
} as const

export type AnnotationFlagName = keyof typeof AnnotationFlag
export type SubmissionFlagName = keyof typeof SubmissionFlag

const LABELS: Record<AnnotationFlagName | SubmissionFlagName, string> = {
  NlUnparsed: 'NL does not parse',
  StructuredUnparsed: 'Structured does not parse',
  ConnectorMismatch: "connector is not the dimension's",
  NlStructuredDisagree: 'NL and Structured disagree',
  UnderscoreLost: 'variable lost its underscore',
  ExtraConnector: 'more than one connector',
  UnknownConnector: 'unknown connector',
  Hidden: 'answer hidden',
  PartlyEscaped: 'partly escaped',
  ReferenceCount: 'not 3 references',
  EmptyReference: 'empty reference',
  FilledMismatch: 'number_filled_in disagrees',
  DuplicateKey: 'duplicate key in file',
  SingleDimension: 'only 1 dimension',
  NoDimension: 'no dimension filled',
  ConnectorProblem: 'unknown or extra connector',
  AnswersHidden: 'answers hidden',
  SentenceMismatch: 'selected sentence does not match story',
  IdMismatch: 'id disagrees with story / sentence',
  AnnotationFlagged: 'an annotation is flagged',
  AnswerUnparsed: 'MTurk answer does not parse (kept raw)',
  StoryMissing: 'MTurk answer names no story (kept raw)',
}

const ALL: readonly [AnnotationFlagName | SubmissionFlagName, number][] = [
  ...Object.entries(AnnotationFlag),
  ...Object.entries(SubmissionFlag),
] as [AnnotationFlagName | SubmissionFlagName, number][]

/** The names and reviewer-facing labels of the bits set in `mask`. */
export function describeFlags(
  mask: number,
): { name: AnnotationFlagName | SubmissionFlagName; label: string }[] {
  return ALL.filter(([, bit]) => (mask & bit) !== 0).map(([name]) => ({
    name,
    label: LABELS[name],
  }))
}

/** The annotation flags' names, in bit order (the kinds the review grid's Flagged filter offers). */
export const ANNOTATION_FLAG_NAMES = Object.keys(AnnotationFlag) as [
  AnnotationFlagName,
  ...AnnotationFlagName[],
]

export function flagLabel(name: AnnotationFlagName | SubmissionFlagName): string {
  return LABELS[name]
}

/** The bits of the named annotation flags. */
export function annotationFlagMask(names: readonly AnnotationFlagName[]): number {
  return names.reduce((mask, name) => mask | AnnotationFlag[name], 0)
}
