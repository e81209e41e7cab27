import type { CollectionId } from '../../../shared/collections'
import { collectionSchemas } from '../../collections/schemas'
import type { Db } from '../connection'
import { pluck } from '../connection'
import { sql } from '../sql'

/**
 * The collections beside GLUCOSE that the project holds, in the order of their pages: those with
 * rows in a table that means it (`holds` of each collection's schema).
 */
export function heldCollections(db: Db): CollectionId[] {
  const holds = (table: string): boolean =>
    pluck<number>(db, sql`SELECT EXISTS (SELECT 1 FROM ${sql.raw(table)})`) === 1
  return collectionSchemas.filter((c) => c.holds.some(holds)).map((c) => c.id)
}
