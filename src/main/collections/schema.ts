import type { CollectionId } from '../../shared/collections'
import type { Migration } from '../db/types'

/**
 * What a collection adds to a project file, for the database layer: its migrations (numbered in
 * the file's one sequence with the core's) and the tables whose rows mean a project holds it
 * (anything one of its imports writes on its own). Declared in `collections/<kind>/schema.ts`.
 */
export interface CollectionSchema {
  id: CollectionId
  migrations: readonly Migration[]
  holds: readonly string[]
}
