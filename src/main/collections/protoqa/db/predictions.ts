import type { Db } from '../../../db/connection'
import { all, run } from '../../../db/connection'
import { sql } from '../../../db/sql'
import { nextBandId } from '../../../db/queries/team/ids'

export function addPredictionSet(
  db: Db,
  set: { name: string; sourceFileId: number; changeSetId: number },
  predictions: ReadonlyMap<string, readonly string[]>,
): number {
  const id = Number(
    run(
      db,
      sql`INSERT INTO protoqa_prediction_sets (id, name, source_file_id, change_set_id)
          VALUES (${nextBandId(db, 'protoqa_prediction_sets')}, ${set.name}, ${set.sourceFileId}, ${set.changeSetId})`,
    ).lastInsertRowid,
  )
  for (const [question, list] of predictions) {
    list.forEach((answer, rank) =>
      run(
        db,
        sql`INSERT INTO protoqa_predictions (set_id, question, rank, answer)
            VALUES (${id}, ${question}, ${rank}, ${answer})`,
      ),
    )
  }
  return id
}

export function predictionSets(db: Db): { id: number; name: string; questions: number }[] {
  return all(
    db,
    sql`SELECT s.id, s.name, (SELECT count(DISTINCT question) FROM protoqa_predictions p WHERE p.set_id = s.id) AS questions
        FROM protoqa_prediction_sets s ORDER BY s.id`,
  )
}

/** A prediction set's ranked lists, by question id. */
export function predictionsOf(db: Db, setId: number): Map<string, string[]> {
  const out = new Map<string, string[]>()
  for (const row of all<{ question: string; answer: string }>(
    db,
    sql`SELECT question, answer FROM protoqa_predictions WHERE set_id = ${setId} ORDER BY question, rank`,
  )) {
    const list = out.get(row.question) ?? []
    list.push(row.answer)
    out.set(row.question, list)
  }
  return out
}

/** Whether a prediction file with these bytes was imported already. */
export function hasPredictionFile(db: Db, sha256: string): boolean {
  return (
    all(
      db,
      sql`SELECT 1 FROM protoqa_prediction_sets s JOIN source_files f ON f.id = s.source_file_id
          WHERE f.sha256 = ${sha256} LIMIT 1`,
    ).length > 0
  )
}
