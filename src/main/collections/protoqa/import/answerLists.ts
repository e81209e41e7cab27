import { openCsv, locateField, type CsvRecord } from '../../../importers/csv'
import { InputError, showValue } from '../../../importers/errors'

/** One response of a raw answer list: a worker's answer to a question. */
export interface ProtoqaResponse {
  line: number
  questionId: string
  question: string
  /** As the worker typed it. */
  given: string
  /** The answer it counts toward: trimmed and lower-cased, as the released raw answers are. */
  answer: string
  workerId: string
}

const COLUMNS = ['question_id', 'question', 'answer', 'worker_id'] as const

/** `Question ID`, `question-id` and `question_id` are one column. */
const columnKey = (name: string): string =>
  name
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_')

export interface AnswerList {
  responses: ProtoqaResponse[]
  /** Where the question's text is, and the header's name for it. */
  questionColumn: { index: number; name: string }
  sha256: string
  bytes: number
}

/**
 * Reads a raw answer list (CSV: question id, question, answer, worker id; a header row names the
 * columns, in any order). A worker answers a question once; an empty answer or id is refused.
 */
export function readAnswerList(path: string): AnswerList {
  const reader = openCsv(path, { sha256: true })
  try {
    const first = reader.next()
    if (first === null) throw new Error('unreachable: the reader refuses an empty file')
    const keys = first.fields.map(columnKey)
    const index = Object.fromEntries(COLUMNS.map((c) => [c, keys.indexOf(c)])) as Record<
      (typeof COLUMNS)[number],
      number
    >
    const missing = COLUMNS.filter((c) => index[c] === -1)
    if (missing.length > 0)
      throw new InputError(
        'wrong-header',
        `a raw answer list needs the columns ${COLUMNS.join(', ')}; missing ${missing.join(', ')}`,
        { path, line: first.line, column: 1 },
      )
    const responses: ProtoqaResponse[] = []
    const seen = new Map<string, number>()
    for (let record = reader.next(); record !== null; record = reader.next()) {
      const rec: CsvRecord = record
      if (rec.fields.length !== first.fields.length)
        throw new InputError(
          'ragged-row',
          `expected ${first.fields.length} fields, found ${rec.fields.length}`,
          { path, ...locateField(path, rec, Math.min(rec.fields.length, first.fields.length)) },
        )
      const cell = (name: (typeof COLUMNS)[number]): string => {
        const value = (rec.fields[index[name]] ?? '').trim()
        if (value === '')
          throw new InputError('bad-value', 'expected text, found an empty cell', {
            path,
            ...locateField(path, rec, index[name]),
            field: first.fields[index[name]] ?? name,
          })
        return value
      }
      const questionId = cell('question_id')
      const workerId = cell('worker_id')
      const given = rec.fields[index.answer] ?? ''
      const answer = cell('answer').toLowerCase()
      const key = `${questionId}\u0000${workerId}`
      const earlier = seen.get(key)
      if (earlier !== undefined)
        throw new InputError(
          'bad-value',
          `worker ${showValue(workerId)} already answered ${showValue(questionId)} on line ${earlier}`,
          {
            path,
            ...locateField(path, rec, index.worker_id),
            field: first.fields[index.worker_id],
          },
        )
      seen.set(key, rec.line)
      responses.push({
        line: rec.line,
        questionId,
        question: cell('question'),
        given,
        answer,
        workerId,
      })
    }
    return {
      responses,
      questionColumn: { index: index.question, name: first.fields[index.question] ?? 'question' },
      sha256: reader.sha256(),
      bytes: reader.size,
    }
  } finally {
    reader.close()
  }
}
