import type { Db } from '../../../db/connection'
import { pluck, run } from '../../../db/connection'
import { sql } from '../../../db/sql'
import { nextBandId } from '../../../db/queries/team/ids'

export function hasResponse(db: Db, questionId: number, workerId: number): boolean {
  return (
    pluck<number>(
      db,
      sql`SELECT 1 FROM protoqa_responses WHERE question_id = ${questionId} AND worker_id = ${workerId}`,
    ) !== undefined
  )
}

export function addResponse(
  db: Db,
  r: {
    questionId: number
    answerId: number
    workerId: number
    given: string
    sourceFileId: number
    line: number
  },
): void {
  run(
    db,
    sql`INSERT INTO protoqa_responses (id, question_id, answer_id, worker_id, given, source_file_id, line)
        VALUES (${nextBandId(db, 'protoqa_responses')}, ${r.questionId}, ${r.answerId}, ${r.workerId}, ${r.given}, ${r.sourceFileId}, ${r.line})`,
  )
}

export function questionHasResponses(db: Db, questionId: number): boolean {
  return (
    pluck<number>(
      db,
      sql`SELECT 1 FROM protoqa_responses WHERE question_id = ${questionId} LIMIT 1`,
    ) !== undefined
  )
}
