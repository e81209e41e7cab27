import type { ImportResult } from '../../shared/contract/imports'
import {
  type CollectionImportResult,
  type CollectionImportWork,
  importerOf,
} from '../collections/importers'
import { type OpenOptions, openProject } from '../db/connection'
import { indexSearchText } from '../search/indexer'
import { type ImportFile, type ImportHooks, type ImportOptions, importFiles } from './run'

/**
 * The indexing's page cache after an import, in KiB: it appends to the index, and refilling the
 * connection's 64 MB here stacked on what the import left in memory (docs/benchmarks.md, "Peak
 * memory of large jobs at ten million").
 */
export const INDEXING_CACHE_MB = 16

/**
 * What an import brings in: GLUCOSE files (then their text is indexed for search), or a
 * collection's input (`collections/importers.ts`).
 */
export type ImportWork =
  { collection?: 'glucose'; files: ImportFile[]; options: ImportOptions } | CollectionImportWork

/** What importing `W` returns. */
export type ImportWorkResult<W extends ImportWork> = W extends CollectionImportWork
  ? CollectionImportResult<W>
  : ImportResult

export interface ImportWorkHooks extends ImportHooks {
  /**
   * Once the rows are committed: how many annotations' text is indexed for search, of how many.
   * `cancelled` then stops the indexing; the import stays, and the rest is indexed later.
   */
  indexing?(done: number, total: number): void
}

/**
 * Opens the project, imports the files in one transaction (all or, on bad input or cancel,
 * nothing), indexes their text for search and closes the project. The one way in for the command
 * line, an import job on the calling thread and the import thread.
 */
export async function importIntoProject<W extends ImportWork>(
  dbPath: string,
  work: W,
  hooks: ImportWorkHooks = {},
  open: Pick<OpenOptions, 'create' | 'nativeBinding'> = {},
): Promise<ImportWorkResult<W>> {
  const db = openProject(dbPath, { ...open, memoryMap: false })
  try {
    if (work.collection !== undefined && work.collection !== 'glucose') {
      const collectionWork = work as CollectionImportWork
      const run = await importerOf(collectionWork).load()
      return run(db, collectionWork, hooks) as ImportWorkResult<W>
    }
    const result = importFiles(db, work.files, work.options, hooks)
    // The rows are committed; their text goes into the full-text index in small steps.
    indexSearchText(db, {
      progress: (done, total) => hooks.indexing?.(done, total),
      cancelled: () => hooks.cancelled?.() ?? false,
      cacheMb: INDEXING_CACHE_MB,
    })
    return result as ImportWorkResult<W>
  } finally {
    db.close()
  }
}
