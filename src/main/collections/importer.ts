import type { CollectionId } from '../../shared/collections'
import type { Db } from '../db/types'
import type { ImportHooks } from '../importers/run'

/**
 * How a collection imports, for the import job and the task thread: what the job counts, the
 * names the user knows the input by, the summary of a result, and the import itself, loaded on
 * the thread only when it runs (so an import of one collection never loads another's modules).
 * Declared in `collections/<kind>/importer.ts`.
 */
export interface CollectionImporter<Work extends { collection: CollectionId }, Result> {
  id: Work['collection']
  /** What the job's progress counts: bytes read, or items. */
  unit: 'bytes' | 'items'
  names(work: Work): string[]
  describe(result: Result, names: readonly string[]): string
  load(): Promise<(db: Db, work: Work, hooks: ImportHooks) => Result>
}
