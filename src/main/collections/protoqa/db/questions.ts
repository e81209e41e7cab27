import type { Db } from '../../../db/connection'
import { all, get, pluck, run } from '../../../db/connection'
import { sql } from '../../../db/sql'
import { nextBandId } from '../../../db/queries/team/ids'
import type { ProtoqaAnswer, QuestionSummary } from '../../../../shared/protoqa/model'
import { checkSelection } from '../../../../shared/protoqa/selection'
import { currentClusterings } from './clusterings'

export interface NewQuestion {
  externalId: string
  source: string
  original: string
  normalized: string
  changeSetId: number
  sourceFileId: number | null
}

/** The question's id, and whether this call added it (a question already there is kept as is). */
export function findOrAddQuestion(db: Db, q: NewQuestion): { id: number; added: boolean } {
  const existing = pluck<number>(
    db,
    sql`SELECT id FROM protoqa_questions WHERE external_id = ${q.externalId}`,
  )
  if (existing !== undefined) return { id: existing, added: false }
  const result = run(
    db,
    sql`INSERT INTO protoqa_questions (id, external_id, source, original, normalized, change_set_id, source_file_id)
        VALUES (${nextBandId(db, 'protoqa_questions')}, ${q.externalId}, ${q.source}, ${q.original}, ${q.normalized}, ${q.changeSetId}, ${q.sourceFileId})`,
  )
  return { id: Number(result.lastInsertRowid), added: true }
}

export function questionId(db: Db, externalId: string): number | undefined {
  return pluck<number>(db, sql`SELECT id FROM protoqa_questions WHERE external_id = ${externalId}`)
}

/** The answer's id, added with `count` respondents or, when there, given `count` more. */
export function addAnswer(
  db: Db,
  questionId: number,
  text: string,
  count: number,
): { id: number; added: boolean } {
  const id = pluck<number>(
    db,
    sql`SELECT id FROM protoqa_answers WHERE question_id = ${questionId} AND text = ${text}`,
  )
  if (id !== undefined) {
    if (count !== 0)
      run(db, sql`UPDATE protoqa_answers SET count = count + ${count} WHERE id = ${id}`)
    return { id, added: false }
  }
  const inserted = run(
    db,
    sql`INSERT INTO protoqa_answers (id, question_id, text, count)
        VALUES (${nextBandId(db, 'protoqa_answers')}, ${questionId}, ${text}, ${count})`,
  )
  return { id: Number(inserted.lastInsertRowid), added: true }
}

/** The answers of a question with their respondents, in the order they were first imported. */
export function questionAnswers(db: Db, questionId: number): (ProtoqaAnswer & { id: number })[] {
  return all(
    db,
    sql`SELECT id, text, count FROM protoqa_answers WHERE question_id = ${questionId} ORDER BY id`,
  )
}

export interface QuestionRow {
  id: number
  externalId: string
  source: string
  original: string
  normalized: string
}

export function questionRow(db: Db, externalId: string): QuestionRow | undefined {
  return get(
    db,
    sql`SELECT id, external_id AS externalId, source, original, normalized
        FROM protoqa_questions WHERE external_id = ${externalId}`,
  )
}

/** The file a question was first imported from (its name), null when none is recorded. */
export function questionOrigin(db: Db, questionId: number): string | null {
  return (
    pluck<string>(
      db,
      sql`SELECT f.name FROM protoqa_questions q JOIN source_files f ON f.id = q.source_file_id
          WHERE q.id = ${questionId}`,
    ) ?? null
  )
}

export function questionRows(db: Db): QuestionRow[] {
  return all(
    db,
    sql`SELECT id, external_id AS externalId, source, original, normalized
        FROM protoqa_questions ORDER BY id`,
  )
}

/** Every question with what the question list shows. */
export function questionSummaries(db: Db): QuestionSummary[] {
  const counts = new Map(
    all<{ q: number; answers: number; responses: number }>(
      db,
      sql`SELECT question_id AS q, count(*) AS answers, sum(count) AS responses
          FROM protoqa_answers GROUP BY question_id`,
    ).map((r) => [r.q, r]),
  )
  return questionRows(db).map((q) => {
    const clusterings = currentClusterings(db, q.id)
    const final =
      clusterings.find((c) => c.role === 'final') ?? clusterings.find((c) => c.role === 'imported')
    return {
      id: q.externalId,
      question: q.original,
      answers: counts.get(q.id)?.answers ?? 0,
      responses: counts.get(q.id)?.responses ?? 0,
      reviewers: clusterings.filter((c) => c.role === 'reviewer').map((c) => c.author),
      final: final !== undefined,
      topAnswers: final ? checkSelection(final.counts).topAnswers : null,
    }
  })
}

export function protoqaTotals(db: Db): { questions: number; answers: number; responses: number } {
  return (
    get(
      db,
      sql`SELECT (SELECT count(*) FROM protoqa_questions) AS questions,
                 (SELECT count(*) FROM protoqa_answers) AS answers,
                 (SELECT coalesce(sum(count), 0) FROM protoqa_answers) AS responses`,
    ) ?? { questions: 0, answers: 0, responses: 0 }
  )
}
