import { basename, extname } from 'node:path'
import type { ProtoqaFormat, ProtoqaImportResult } from '../../../../shared/protoqa/model'
import { plural } from '../../../../shared/text'
import { type Db, withPragmas } from '../../../db/connection'
import {
  createChangeSet,
  describeChangeSet,
  discardChangeSet,
} from '../../../db/queries/changes/sets'
import { addClustering } from '../db/clusterings'
import { addPredictionSet, hasPredictionFile } from '../db/predictions'
import {
  addAnswer,
  findOrAddQuestion,
  questionAnswers,
  questionId,
  questionRow,
} from '../db/questions'
import { addResponse, hasResponse, questionHasResponses } from '../db/responses'
import { completeSourceFile, insertSourceFile } from '../../../db/queries/submissions'
import { findOrAddWorker } from '../../../db/queries/workers/ids'
import { CancelledError } from '../../../jobs/cancel'
import { InputError, showValue } from '../../../importers/errors'
import { IMPORT_PRAGMAS, type ImportHooks } from '../../../importers/run'
import { readAnswerList, type AnswerList } from './answerLists'
import { checkSameQuestion, otherQuestionText } from './conflicts'
import { readPredictions } from './predictions'
import { type ProtoqaRecord, readProtoqaQuestions } from './questions'
import { readTextFile, textLines } from './text'
import { append } from '../../../../shared/lists'
import { noteGrownRow } from '../../../db/queries/team/grownRows'

export interface ProtoqaImportFile {
  path: string
  name?: string
  format?: ProtoqaFormat
}

/** What a ProtoQA file holds, from its name and first line; null when it is none of them. */
function detectProtoqaFormat(path: string): ProtoqaFormat | null {
  const ext = extname(path).toLowerCase()
  if (ext === '.csv') return 'protoqa-answers'
  if (ext === '.json') return 'protoqa-predictions'
  if (ext !== '.jsonl') return null
  try {
    const [first] = textLines(readTextFile(path).text)
    if (!first) return 'protoqa-questions'
    if (/"(question_id|ranked_answers)"/.test(first.text)) return 'protoqa-predictions'
    const row = JSON.parse(first.text) as unknown
    if (typeof row !== 'object' || row === null) return 'protoqa-questions'
    return 'metadata' in row || 'answers' in row ? 'protoqa-questions' : 'protoqa-predictions'
  } catch {
    // Read as questions: the file's first error is then reported with its line and column.
    return 'protoqa-questions'
  }
}

type Opened =
  | {
      format: 'protoqa-questions'
      records: ProtoqaRecord[]
      warnings: string[]
      bytes: number
      sha256: string
    }
  | { format: 'protoqa-answers'; list: AnswerList }
  | {
      format: 'protoqa-predictions'
      predictions: Map<string, string[]>
      bytes: number
      sha256: string
    }

function open(file: ProtoqaImportFile): Opened {
  const format = file.format ?? detectProtoqaFormat(file.path)
  if (format === 'protoqa-answers') return { format, list: readAnswerList(file.path) }
  const text = readTextFile(file.path)
  if (format === 'protoqa-questions') {
    const { records, warnings } = readProtoqaQuestions(text)
    return {
      format,
      records,
      warnings: warnings.map((w) => w.message),
      bytes: text.bytes,
      sha256: text.sha256,
    }
  }
  if (format === 'protoqa-predictions')
    return { format, predictions: readPredictions(text), bytes: text.bytes, sha256: text.sha256 }
  throw new InputError(
    'format-mismatch',
    'not a ProtoQA file: expected questions (.jsonl), a raw answer list (.csv) or predictions (.json, .jsonl)',
    { path: file.path, line: 0, column: 0 },
  )
}

const PROGRESS_EVERY = 200

/**
 * Imports ProtoQA files in one transaction: all of them or, on bad input or cancel, none. Every
 * file is read and checked before anything is written. A question already in the project is
 * kept as it is when the file says the same of it and refused where the file says otherwise, a
 * worker's response already there is not added again, and a prediction file already imported is
 * skipped, so importing a file twice adds nothing.
 */
export function importProtoqaFiles(
  db: Db,
  files: readonly ProtoqaImportFile[],
  options: { author?: string } = {},
  hooks: ImportHooks = {},
): ProtoqaImportResult {
  const opened = files.map((file) => ({
    file,
    name: file.name ?? basename(file.path),
    data: open(file),
  }))
  const sizeOf = (o: Opened): number => (o.format === 'protoqa-answers' ? o.list.bytes : o.bytes)
  const totalBytes = opened.reduce((s, o) => s + sizeOf(o.data), 0)
  const author = options.author ?? 'import'
  const write = (): ProtoqaImportResult => {
    const changeSet = createChangeSet(db, { kind: 'import', author, description: 'Import' })
    const result: ProtoqaImportResult = {
      questions: 0,
      answers: 0,
      clusters: 0,
      responses: 0,
      predictions: 0,
      files: [],
    }
    let bytesBefore = 0
    let records = 0
    const tick = (name: string, fraction: number, size: number): void => {
      if (++records % PROGRESS_EVERY !== 0) return
      if (hooks.cancelled?.()) throw new CancelledError()
      hooks.progress?.({
        done: bytesBefore + Math.round(size * fraction),
        total: totalBytes,
        unit: 'bytes',
        records,
        file: name,
      })
    }
    for (const { file, name, data } of opened) {
      const size = sizeOf(data)
      const sourceFileId = insertSourceFile(db, {
        name,
        path: file.path,
        bytes: size,
        format: data.format,
        year: null,
        changeSetId: changeSet.id,
      })
      let fileRecords = 0
      const warnings: string[] = []
      if (data.format === 'protoqa-questions') {
        append(warnings, data.warnings)
        data.records.forEach((record, i) => {
          writeQuestion(
            db,
            file.path,
            record,
            { changeSetId: changeSet.id, sourceFileId, author, at: changeSet.at },
            result,
          )
          fileRecords++
          tick(name, (i + 1) / data.records.length, size)
        })
      } else if (data.format === 'protoqa-answers') {
        writeResponses(
          db,
          file.path,
          data.list,
          { changeSetId: changeSet.id, sourceFileId },
          result,
          (i) => {
            fileRecords++
            tick(name, (i + 1) / data.list.responses.length, size)
          },
        )
      } else if (!hasPredictionFile(db, data.sha256)) {
        addPredictionSet(db, { name, sourceFileId, changeSetId: changeSet.id }, data.predictions)
        fileRecords = data.predictions.size
        result.predictions += data.predictions.size
      }
      completeSourceFile(db, sourceFileId, {
        sha256: data.format === 'protoqa-answers' ? data.list.sha256 : data.sha256,
        records: fileRecords,
        counts: { submissions: 0, annotations: 0 },
        warnings,
      })
      bytesBefore += size
      result.files.push({ file: name, format: data.format, warnings })
      if (hooks.cancelled?.()) throw new CancelledError()
    }
    hooks.progress?.({ done: totalBytes, total: totalBytes, unit: 'bytes', records, file: '' })
    if (result.questions + result.answers + result.responses + result.predictions === 0) {
      discardChangeSet(db, changeSet.id)
      return result
    }
    describeChangeSet(
      db,
      changeSet.id,
      `Imported ${result.files.map((f) => f.file).join(', ')}: ${describeProtoqaImport(result)}`,
    )
    return result
  }
  return withPragmas(db, IMPORT_PRAGMAS, () => db.transaction(write).immediate())
}

export function describeProtoqaImport(r: ProtoqaImportResult): string {
  const parts = [
    plural(r.questions, 'question'),
    plural(r.answers, 'answer'),
    plural(r.clusters, 'cluster'),
  ]
  if (r.responses) parts.push(plural(r.responses, 'response'))
  if (r.predictions) parts.push(plural(r.predictions, 'predicted list'))
  return parts.join(', ')
}

function writeQuestion(
  db: Db,
  path: string,
  record: ProtoqaRecord,
  at: { changeSetId: number; sourceFileId: number; author: string; at: number },
  result: ProtoqaImportResult,
): void {
  const question = findOrAddQuestion(db, {
    externalId: record.id,
    source: record.source,
    original: record.original,
    normalized: record.normalized,
    changeSetId: at.changeSetId,
    sourceFileId: at.sourceFileId,
  })
  if (!question.added) return checkSameQuestion(db, path, record)
  const answerIds = new Map<string, number>()
  for (const [text, count] of record.raw)
    answerIds.set(text, addAnswer(db, question.id, text, count).id)
  const clustered = new Set(record.clusters.flatMap((c) => c.answers))
  addClustering(db, {
    questionId: question.id,
    role: 'imported',
    author: at.author,
    decidedBy: null,
    changeSetId: at.changeSetId,
    answerIds,
    clusters: record.clusters.map((c) => ({
      label: c.label,
      name: c.label,
      declaredCount: c.count,
      answers: c.answers,
    })),
    // Invalid answers are the raw answers in no cluster.
    invalid: [...record.raw.keys()].filter((a) => !clustered.has(a)),
    fixes: {},
    at: at.at,
  })
  result.questions++
  result.answers += record.raw.size
  result.clusters += record.clusters.length
}

function writeResponses(
  db: Db,
  path: string,
  list: AnswerList,
  at: { changeSetId: number; sourceFileId: number },
  result: ProtoqaImportResult,
  onRecord: (index: number) => void,
): void {
  const fromFile = new Map<string, boolean>()
  const texts = new Map<string, string>()
  list.responses.forEach((r, index) => {
    let q = questionId(db, r.questionId)
    if (q === undefined) {
      q = findOrAddQuestion(db, {
        externalId: r.questionId,
        source: 'answer list',
        original: r.question,
        normalized: r.question.toLowerCase(),
        changeSetId: at.changeSetId,
        sourceFileId: at.sourceFileId,
      }).id
      result.questions++
      fromFile.set(r.questionId, false)
    }
    let released = fromFile.get(r.questionId)
    if (released === undefined) {
      released = questionAnswers(db, q).length > 0 && !questionHasResponses(db, q)
      fromFile.set(r.questionId, released)
      // A question an earlier change set brought gains answers (a team updates it, not inserts).
      if (!released) noteGrownRow(db, at.changeSetId, 'protoqa_questions', [q])
    }
    if (released)
      throw new InputError(
        'bad-value',
        `question ${showValue(r.questionId)} came from a ProtoQA file with its answer counts; its raw answers cannot be added to them`,
        { path, line: r.line, column: 1, field: 'question_id' },
      )
    let text = texts.get(r.questionId)
    if (text === undefined) {
      text = questionRow(db, r.questionId)?.original ?? r.question
      texts.set(r.questionId, text)
    }
    if (text !== r.question) throw otherQuestionText(db, path, list, r, q, text)
    const worker = findOrAddWorker(db, r.workerId)
    if (hasResponse(db, q, worker)) return onRecord(index)
    const answer = addAnswer(db, q, r.answer, 1)
    if (answer.added) result.answers++
    addResponse(db, {
      questionId: q,
      answerId: answer.id,
      workerId: worker,
      given: r.given,
      sourceFileId: at.sourceFileId,
      line: r.line,
    })
    result.responses++
    onRecord(index)
  })
}
