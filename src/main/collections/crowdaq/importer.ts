import { basename } from 'node:path'
import type { CrowdaqImportCounts } from '../../../shared/crowdaq/contract'
import type { CollectionImporter } from '../importer'
import { describeCounts } from './import/counts'
import type { CrowdaqImportOptions } from './import/import'

export interface CrowdaqImportWork {
  collection: 'crowdaq'
  /** A file, a zip or a desktop-client export folder. */
  path: string
  name?: string
  options: CrowdaqImportOptions
}

/** What CROWDAQ has at a path, counted in items: `import/import.ts`. */
export const crowdaqImporter: CollectionImporter<CrowdaqImportWork, CrowdaqImportCounts> = {
  id: 'crowdaq',
  unit: 'items',
  names: (work) => [work.name ?? basename(work.path)],
  describe: (result, names) => `Imported ${names[0] ?? ''}: ${describeCounts(result)}.`,
  // Its importer checks with zod schemas: loaded for a CROWDAQ import only, so the import
  // thread starts without zod for the others.
  load: async () => {
    const { importCrowdaq } = await import('./import/import')
    return (db, work, hooks) => importCrowdaq(db, work.path, work.options, hooks)
  },
}
