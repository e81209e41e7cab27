import type { CrowdaqProblem } from './problems'

/** One row of an attempts CSV: `worker_id,attempt,question_id,shown,answer`. */
export interface CsvAttemptRow {
  workerId: string
  attempt: number
  questionId: string
  shown: boolean
  answer: string | null
  line: number
}

const ATTEMPTS_HEADER = ['worker_id', 'attempt', 'question_id', 'shown', 'answer'] as const

/** Splits CSV text into records with the line each starts on (RFC 4180 quotes). */
function records(
  text: string,
): { fields: string[]; line: number }[] | { line: number; column: number } {
  const out: { fields: string[]; line: number }[] = []
  let fields: string[] = []
  let field = ''
  let quoted = false
  let line = 1
  let start = 1
  let column = 0
  let quoteColumn = 1
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string
    column++
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"'
          i++
        } else quoted = false
      } else {
        if (ch === '\n') {
          line++
          column = 0
        }
        field += ch
      }
      continue
    }
    if (ch === '"' && field === '') {
      quoted = true
      quoteColumn = column
    } else if (ch === ',') {
      fields.push(field)
      field = ''
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++
      fields.push(field)
      if (fields.length > 1 || fields[0] !== '') out.push({ fields, line: start })
      fields = []
      field = ''
      line++
      start = line
      column = 0
    } else field += ch
  }
  if (quoted) return { line: start, column: quoteColumn }
  if (field !== '' || fields.length > 0) {
    fields.push(field)
    out.push({ fields, line: start })
  }
  return out
}

export function parseAttemptsCsv(
  file: string,
  text: string,
): { rows: CsvAttemptRow[]; problems: CrowdaqProblem[] } {
  const problems: CrowdaqProblem[] = []
  const at = (line: number, column: number, path: string, message: string): void => {
    problems.push({ file, line, column, path, message })
  }
  const parsed = records(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text)
  if (!Array.isArray(parsed)) {
    at(parsed.line, parsed.column, '', 'a quoted field is never closed')
    return { rows: [], problems }
  }
  const [header, ...body] = parsed
  if (!header || header.fields.map((f) => f.trim()).join(',') !== ATTEMPTS_HEADER.join(',')) {
    at(1, 1, '', `expected the header ${ATTEMPTS_HEADER.join(',')}`)
    return { rows: [], problems }
  }
  const rows: CsvAttemptRow[] = []
  const columnOf = (fields: string[], index: number): number =>
    fields.slice(0, index).reduce((n, f) => n + f.length + 1, 1)
  for (const { fields, line } of body) {
    if (fields.length !== ATTEMPTS_HEADER.length) {
      at(line, 1, '', `expected ${ATTEMPTS_HEADER.length} fields, found ${fields.length}`)
      continue
    }
    const [workerId = '', attempt = '', questionId = '', shown = '', answer = ''] = fields
    const n = Number(attempt)
    if (workerId.trim() === '') at(line, 1, 'worker_id', 'a worker id is required')
    if (!/^\d+$/.test(attempt.trim()) || n < 1) {
      at(
        line,
        columnOf(fields, 1),
        'attempt',
        `expected an attempt number from 1, got '${attempt}'`,
      )
    }
    if (questionId.trim() === '')
      at(line, columnOf(fields, 2), 'question_id', 'a question id is required')
    const shownValue = shown.trim().toLowerCase()
    if (!['1', '0', 'true', 'false'].includes(shownValue)) {
      at(line, columnOf(fields, 3), 'shown', `expected 1 or 0, got '${shown}'`)
    }
    rows.push({
      workerId: workerId.trim(),
      attempt: n,
      questionId: questionId.trim(),
      shown: shownValue === '1' || shownValue === 'true',
      answer: answer.trim() === '' ? null : answer.trim(),
      line,
    })
  }
  return { rows, problems }
}
