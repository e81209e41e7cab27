import { crowdaqPage } from './crowdaq/page'
import { haliePage } from './halie/page'
import { protoqaPage } from './protoqa/page'

/**
 * The collections a project may hold beside GLUCOSE, by their pages (id, label, hint: the page's
 * tab, Go menu entry and key), in the order of their tabs. Each collection declares its page in
 * `shared/<kind>/page.ts`; a new collection is one line here.
 */
export const COLLECTION_PAGES = [protoqaPage, crowdaqPage, haliePage] as const

export type CollectionId = (typeof COLLECTION_PAGES)[number]['collection']

export const COLLECTIONS: readonly CollectionId[] = COLLECTION_PAGES.map((p) => p.collection)
