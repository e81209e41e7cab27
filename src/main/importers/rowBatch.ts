import type { ImportedAnnotation, ImportedSubmission, StoredSubmission } from './types'

/**
 * Imported (or pulled) submissions as one flat array of strings, numbers and nulls, to cross from the reading
 * thread to the writing one. A flat array is cloned and rebuilt several times faster than the
 * same rows as nested objects, and the writing thread is the one the import waits for.
 */
export type RowBatch = (string | number | null)[]

export function encodeRows(rows: readonly StoredSubmission[]): RowBatch {
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
  return decode(batch, (v) => v as string)
}

/** Pulled submissions: an answer that names no story has none. */
export function decodeStoredRows(batch: RowBatch): StoredSubmission[] {
  return decode(batch, (v) => v as string | null)
}

function decode<S extends string | null>(
  batch: RowBatch,
  story: (value: string | number | null) => S,
): (Omit<ImportedSubmission, 'storyExternalId'> & { storyExternalId: S })[] {
  const rows: (Omit<ImportedSubmission, 'storyExternalId'> & { storyExternalId: S })[] = []
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
    const storyExternalId = story(batch[i++] ?? null)
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
