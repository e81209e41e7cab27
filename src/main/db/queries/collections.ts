import { COLLECTIONS, type CollectionId } from '../../../shared/pages'
import type { Db } from '../connection'
import { pluck } from '../connection'
import { sql } from '../sql'

/**
 * The tables whose rows mean a project holds a collection: anything one of its imports writes
 * on its own (a prediction set alone is ProtoQA work; task results alone are CROWDAQ work).
 */
const TABLES: Record<CollectionId, readonly string[]> = {
  protoqa: ['protoqa_questions', 'protoqa_prediction_sets'],
  crowdaq: [
    'crowdaq_instructions',
    'crowdaq_tutorials',
    'crowdaq_exams',
    'crowdaq_tasks',
    'crowdaq_task_assignments',
  ],
  halie: ['halie_sessions'],
}

/** The collections beside GLUCOSE that the project holds, in the order of their pages. */
export function heldCollections(db: Db): CollectionId[] {
  const holds = (table: string): boolean =>
    pluck<number>(db, sql`SELECT EXISTS (SELECT 1 FROM ${sql.raw(table)})`) === 1
  return COLLECTIONS.filter((c) => TABLES[c].some(holds))
}
