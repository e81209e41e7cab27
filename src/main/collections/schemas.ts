import { crowdaqSchema } from './crowdaq/schema'
import { halieSchema } from './halie/schema'
import { protoqaSchema } from './protoqa/schema'
import type { CollectionSchema } from './schema'

/**
 * The collections' schemas, which the database layer asks (the migration sequence, the
 * collections a project holds). Apart from `registry.ts` because `db/` sits below the handlers
 * and commands the registry reaches. In the order of their pages.
 */
export const collectionSchemas: readonly CollectionSchema[] = [
  protoqaSchema,
  crowdaqSchema,
  halieSchema,
]
