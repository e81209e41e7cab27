import { COLLECTION_PAGES, type CollectionId } from './collections'

export { COLLECTIONS, type CollectionId } from './collections'

/**
 * The app's pages, in the order of their tabs and of their keys (Ctrl+1 … from the desktop app's
 * Go menu, Alt+1 … anywhere). Main builds the Go menu from this list and the page its tabs, so
 * a new page is one entry here and one view in `renderer/src/features/shell/pageViews.tsx`; a
 * collection's page comes from the collections' list (`shared/collections.ts`) and its view from
 * the renderer's (`features/collections.ts`).
 * A page of a collection shows only in projects that hold it; its key stays its position here,
 * so hiding a tab never moves another page to a different digit.
 */
export const PAGES = [
  { id: 'review', label: 'Review', hint: 'Filter, read and rate annotations' },
  { id: 'today', label: 'Today', hint: 'New submissions per worker, and the triage queue' },
  { id: 'audits', label: 'Audits', hint: 'Spot-check samples with confidence intervals' },
  { id: 'dashboard', label: 'Dashboard', hint: 'Charts of volume, dimensions and ratings' },
  { id: 'policies', label: 'Policies', hint: 'Write, dry run and apply re-rating policies' },
  {
    id: 'release',
    label: 'Release',
    hint: 'Export tier files, a split, a datasheet and a manifest',
  },
  ...COLLECTION_PAGES,
] as const satisfies readonly {
  id: string
  label: string
  hint: string
  collection?: CollectionId
}[]

export type Page = (typeof PAGES)[number]
export type PageId = Page['id']

/** The collection a page belongs to; null for the project's own pages, always shown. */
function pageCollection(page: Page): CollectionId | null {
  return 'collection' in page ? page.collection : null
}

/**
 * Whether a page is in the navigation: the project's own pages always, a collection's page when
 * the project holds that collection, or while it is open (to import a first file).
 */
export function pageShown(page: Page, held: readonly CollectionId[], open?: PageId): boolean {
  const collection = pageCollection(page)
  return collection === null || held.includes(collection) || page.id === open
}

/** The digit of a page's key (Alt+digit, Ctrl+digit): its position in PAGES, hidden or not. */
export function pageDigit(id: PageId): number | null {
  const position = PAGES.findIndex((p) => p.id === id) + 1
  return position >= 1 && position <= 9 ? position : null
}

export function isPageId(value: unknown): value is PageId {
  return PAGES.some((p) => p.id === value)
}

/** The Go menu's command for a page. */
export type GoCommand = `go:${PageId}`

export function isGoCommand(command: string): command is GoCommand {
  return command.startsWith('go:') && isPageId(command.slice(3))
}
