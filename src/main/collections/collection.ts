import type { CollectionId } from '../../shared/collections'
import type { CallName } from '../../shared/contract'
import type { Handlers } from '../api/handlers'
import type { Command } from '../cli/command'
import type { Db } from '../db/types'
import type { CollectionImporter } from './importer'
import type { CollectionSchema } from './schema'

/** A release a collection writes of its own (GLUCOSE's release folder is the core's). */
export interface ReleaseWriter {
  /** What it writes, as `winnow <kind> export` and the page say. */
  what: string
  write(db: Db, path: string, datasheetPath?: string): unknown
}

/**
 * Everything a collection adds to Winnow, declared in one place (`collections/<kind>/index.ts`):
 * its schema (migrations, the tables that mean a project holds it), its importer, its API
 * handlers (exactly its calls of the contract), its commands and its release writer. Its page is
 * declared beside its pure logic (`shared/<kind>/page.ts`) and its view in the renderer
 * (`features/<kind>/index.ts`).
 */
export interface Collection<K extends CallName = CallName> {
  id: CollectionId
  schema: CollectionSchema
  importer: Omit<CollectionImporter<never, unknown>, 'id'> & { id: CollectionId }
  handlers: Handlers<K>
  commands: readonly Command[]
  release?: ReleaseWriter
}
