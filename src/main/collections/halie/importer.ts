import { type HalieImportResult, describeHalieImport } from '../../../shared/halie/tasks'
import type { CollectionImporter } from '../importer'
import type { HalieSource } from './read'

export interface HalieImportWork {
  collection: 'halie'
  sources: HalieSource[]
  options: { author?: string }
}

/** A HALIE data folder's tables and logs: `import.ts`. */
export const halieImporter: CollectionImporter<HalieImportWork, HalieImportResult> = {
  id: 'halie',
  unit: 'bytes',
  names: (work) => work.sources.map((s) => s.relPath),
  describe: (result) => `Added ${describeHalieImport(result)}`,
  load: async () => {
    const { importHalie } = await import('./import')
    return (db, work, hooks) => importHalie(db, work.sources, work.options, hooks)
  },
}
