import type { Db } from '../connection'
import { pluck, run } from '../connection'
import { sql } from '../sql'

export function searchBacklogSize(db: Db): number {
  return pluck<number>(db, sql`SELECT count(*) FROM search_backlog`) ?? 0
}

/**
 * Moves up to `limit` annotations from the backlog into the full-text index, in one transaction
 * of its own; returns how many it indexed.
 */
export function indexSearchBacklog(db: Db, limit: number): number {
  return db
    .transaction(() => {
      const first = sql`SELECT annotation_id FROM search_backlog ORDER BY annotation_id LIMIT ${limit}`
      const indexed = run(
        db,
        sql`INSERT INTO annotation_search (rowid, specific_nl, general_nl)
          SELECT t.annotation_id, t.specific_nl, t.general_nl
          FROM annotation_texts AS t WHERE t.annotation_id IN (${first})`,
      ).changes
      run(db, sql`DELETE FROM search_backlog WHERE annotation_id IN (${first})`)
      return indexed
    })
    .immediate()
}
