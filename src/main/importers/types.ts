/** The normalised records every importer yields, whatever the source layout. */

export interface ImportedAnnotation {
  /** 1–10. */
  dimension: number
  /** Cells verbatim; a test-set cell keeps its `****`-joined references. */
  specificNL: string
  specificStructured: string | null
  generalNL: string
  generalStructured: string | null
  /** `AnnotationFlag` bits (src/shared/glucose/flags.ts). */
  flags: number
}

export interface ImportedSubmission {
  /**
   * `a:<assignmentId>` when the source has one, else `e:<experimentId>|<workerId>` (`#2`, `#3`
   * for repeats within one file); test set: `t:<unique_id>`.
   */
  sourceKey: string
  assignmentId: string | null
  /** null for the test set. */
  workerExternalId: string | null
  /** The raw worker cell when it is not one worker (test set `****` list). */
  workerRef: string | null
  storyExternalId: string
  storyText: string
  /** What this row tells about the story's sentences (the selected one; test set: all). */
  sentences: { index: number; text: string }[]
  sentenceIndex: number
  /** Epoch seconds UTC; midnight of the day for day-precision dates. */
  submittedAt: number | null
  acceptedAt: number | null
  /** The quality column as a number (3, 2, 1.5, −1 …). */
  fileRating: number | null
  declaredFilled: number | null
  /** 1-based source line where the row starts. */
  line: number
  /** `SubmissionFlag` bits (src/shared/glucose/flags.ts). */
  flags: number
  /** Reserved for MTurk Answer XML; null for CSV. */
  raw: string | null
  /** Filled dimensions only, in dimension order; `escaped` dimensions are absent. */
  annotations: ImportedAnnotation[]
}

export type GlucoseFormat = 'glucose-release' | 'glucose-dimension' | 'glucose-test'

export interface ImportWarning {
  code: 'duplicate-key' | 'too-many-warnings'
  message: string
  line: number
}

/**
 * What `SubmissionWriter` stores: an imported submission, or a pulled MTurk one whose answer names
 * no story (`storyExternalId: null`). Such a submission is kept with its raw answer and flags, with
 * no story and no annotations — the answer itself is never dropped.
 */
export type StoredSubmission = Omit<ImportedSubmission, 'storyExternalId'> & {
  storyExternalId: string | null
}
