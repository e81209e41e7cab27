import { SubmissionFlag } from '../../../shared/glucose/flags'
import { splitReferences } from '../../../shared/glucose/references'
import type { ImportedAnnotation } from '../types'
import { TEST_COLUMNS } from './columns'
import { annotationFromCells, detach, type RowContext, summaryFlags } from './context'
import { EXPECTED, splitExperimentId } from './fields'
import type { RowMapper } from './release'

/**
 * The test set (`test_set_answer_key.csv`, `test_set_no_answers.csv`): one row per (story,
 * sentence) with three workers' references per cell. Sentences are `****`-joined in the file;
 * the story text is stored space-joined, as the release writes it, so both name the same story.
 */
export function testSetMapper(ctx: RowContext): RowMapper {
  return {
    width: TEST_COLUMNS.length,
    map(record) {
      const f = record.fields
      const cell = (k: number): string => f[k] ?? ''
      const uniqueId = detach(cell(0))
      const id = splitExperimentId(uniqueId)
      if (id === null)
        ctx.fail(record, 0, 'bad-value', `expected ${EXPECTED.experiment}, found '${uniqueId}'`)
      const sentences = splitReferences(cell(1)).map((text, index) => ({ index, text }))
      const selected = cell(2)
      const annotations: ImportedAnnotation[] = []
      for (let n = 1; n <= 10; n++) {
        const ann = annotationFromCells(n, cell(2 * n + 2), null, cell(2 * n + 3), null, true)
        if (ann) annotations.push(ann)
      }
      let flags = summaryFlags(annotations, false)
      if (sentences[id.sentenceIndex]?.text !== selected) flags |= SubmissionFlag.SentenceMismatch
      const unique = ctx.uniqueKey(`t:${uniqueId}`, record.line)
      if (unique.duplicate) flags |= SubmissionFlag.DuplicateKey
      return {
        sourceKey: unique.key,
        assignmentId: null,
        workerExternalId: null,
        workerRef: detach(cell(3)),
        storyExternalId: id.storyId,
        storyText: sentences.map((s) => s.text).join(' '),
        sentences,
        sentenceIndex: id.sentenceIndex,
        submittedAt: null,
        acceptedAt: null,
        fileRating: null,
        declaredFilled: null,
        line: record.line,
        flags,
        raw: null,
        annotations,
      }
    },
  }
}
