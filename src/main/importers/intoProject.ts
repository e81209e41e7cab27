import type { CrowdaqImportCounts } from '../../shared/crowdaq/contract'
import type { ImportResult } from '../../shared/contract/imports'
import type { ProtoqaImportResult } from '../../shared/protoqa/model'
import type { HalieImportResult } from '../../shared/halie/tasks'
import type { HalieSource } from '../collections/halie/read'
import { type OpenOptions, openProject } from '../db/connection'
import { indexSearchText } from '../search/indexer'
import type { CrowdaqImportOptions } from '../collections/crowdaq/import/import'
import { type ProtoqaImportFile, importProtoqaFiles } from '../collections/protoqa/import/run'
import { type ImportFile, type ImportHooks, type ImportOptions, importFiles } from './run'

/**
 * What an import brings in: GLUCOSE files (then their text is indexed for search), ProtoQA files,
 * or what CROWDAQ has at a path (a file, a zip, a desktop-client export folder).
 */
export type ImportWork =
  | { collection?: 'glucose'; files: ImportFile[]; options: ImportOptions }
  | { collection: 'protoqa'; files: ProtoqaImportFile[]; options: { author?: string } }
  | { collection: 'crowdaq'; path: string; name?: string; options: CrowdaqImportOptions }
  | { collection: 'halie'; sources: HalieSource[]; options: { author?: string } }

/** What importing `W` returns. */
export type ImportWorkResult<W extends ImportWork> = W extends { collection: 'protoqa' }
  ? ProtoqaImportResult
  : W extends { collection: 'crowdaq' }
    ? CrowdaqImportCounts
    : W extends { collection: 'halie' }
      ? HalieImportResult
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
    if (work.collection === 'protoqa') {
      return importProtoqaFiles(db, work.files, work.options, hooks) as ImportWorkResult<W>
    }
    if (work.collection === 'crowdaq') {
      // CROWDAQ's importer checks with zod schemas: loaded for a CROWDAQ import only, so the
      // import thread starts without zod for the others.
      const crowdaq = await import('../collections/crowdaq/import/import')
      return crowdaq.importCrowdaq(db, work.path, work.options, hooks) as ImportWorkResult<W>
    }
    if (work.collection === 'halie') {
      const halie = await import('../collections/halie/import')
      return halie.importHalie(db, work.sources, work.options, hooks) as ImportWorkResult<W>
    }
    const result = importFiles(db, work.files, work.options, hooks)
    // The rows are committed; their text goes into the full-text index in small steps.
    indexSearchText(db, {
      progress: (done, total) => hooks.indexing?.(done, total),
      cancelled: () => hooks.cancelled?.() ?? false,
    })
    return result as ImportWorkResult<W>
  } finally {
    db.close()
  }
}
