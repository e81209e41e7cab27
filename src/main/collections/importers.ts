import { crowdaqImporter } from './crowdaq/importer'
import { halieImporter } from './halie/importer'
import type { CollectionImporter } from './importer'
import { protoqaImporter } from './protoqa/importer'

/**
 * The collections' importers, which the import job and the task thread ask. Apart from
 * `registry.ts` because the thread must not load the handlers, commands and zod the registry
 * reaches.
 */
export const collectionImporters = [protoqaImporter, crowdaqImporter, halieImporter] as const

/** The work of any collection's import. */
export type CollectionImportWork = WorkOfEach<(typeof collectionImporters)[number]>
type WorkOfEach<I> = I extends { names(work: infer W): string[] } ? W : never

type Importer = (typeof collectionImporters)[number]
type ImporterOf = { [I in Importer as I['id']]: I }

/** What importing `W` returns. */
export type CollectionImportResult<W extends CollectionImportWork> =
  ImporterOf[W['collection']] extends {
    describe(result: infer R, names: readonly string[]): string
  }
    ? R
    : never

/** The importer of `work`'s collection. */
export function importerOf<W extends CollectionImportWork>(
  work: W,
): CollectionImporter<W, CollectionImportResult<W>> {
  const found = collectionImporters.find((i) => i.id === work.collection)
  if (found === undefined) throw new Error(`no importer for ${work.collection}`)
  return found as unknown as CollectionImporter<W, CollectionImportResult<W>>
}
