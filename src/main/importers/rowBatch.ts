import type { ImportedAnnotation, ImportedSubmission } from './types'

/**
 * Imported submissions as one flat array of strings, numbers and nulls, to cross from the reading
 * thread to the writing one. A flat array is cloned and rebuilt faster than the same rows as
 * nested objects, and the writing thread is the one the import waits for.
 */
export type RowBatch = (string | number | null)[]

export function encodeRows(rows: readonly ImportedSubmission[]): RowBatch {
  const out: RowBatch = []
  for (const r of rows) {
    out.push(
      r.sourceKey,
      r.assignmentId,
      r.workerExternalId,
      r.workerRef,
      r.storyExternalId,
      r.storyText,
      r.sentenceIndex,
      r.submittedAt,
      r.acceptedAt,
      r.fileRating,
      r.declaredFilled,
      r.line,
      r.flags,
      r.raw,
      r.sentences.length,
    )
    for (const s of r.sentences) out.push(s.index, s.text)
    out.push(r.annotations.length)
    for (const a of r.annotations) {
      out.push(
        a.dimension,
        a.specificNL,
        a.specificStructured,
        a.generalNL,
        a.generalStructured,
        a.flags,
      )
    }
  }
  return out
}

export function decodeRows(batch: RowBatch): ImportedSubmission[] {
  const rows: ImportedSubmission[] = []
  let i = 0
  const str = (): string => batch[i++] as string
  const num = (): number => batch[i++] as number
  const strOrNull = (): string | null => batch[i++] as string | null
  const numOrNull = (): number | null => batch[i++] as number | null
  while (i < batch.length) {
    const sourceKey = str()
    const assignmentId = strOrNull()
    const workerExternalId = strOrNull()
    const workerRef = strOrNull()
    const storyExternalId = str()
    const storyText = str()
    const sentenceIndex = num()
    const submittedAt = numOrNull()
    const acceptedAt = numOrNull()
    const fileRating = numOrNull()
    const declaredFilled = numOrNull()
    const line = num()
    const flags = num()
    const raw = strOrNull()
    const sentences: { index: number; text: string }[] = []
    for (let n = num(); n > 0; n--) sentences.push({ index: num(), text: str() })
    const annotations: ImportedAnnotation[] = []
    for (let n = num(); n > 0; n--) {
      annotations.push({
        dimension: num(),
        specificNL: str(),
        specificStructured: strOrNull(),
        generalNL: str(),
        generalStructured: strOrNull(),
        flags: num(),
      })
    }
    rows.push({
      sourceKey,
      assignmentId,
      workerExternalId,
      workerRef,
      storyExternalId,
      storyText,
      sentences,
      sentenceIndex,
      submittedAt,
      acceptedAt,
      fileRating,
      declaredFilled,
      line,
      flags,
      raw,
      annotations,
    })
  }
  return rows
}
