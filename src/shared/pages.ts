/**
 * The app's pages, in the order of their tabs and of their keys (Ctrl+1 … from the desktop app's
 * Go menu, Alt+1 … anywhere). Main builds the Go menu from this list and the page its tabs, so
 * a new page is one entry here and one view in `renderer/src/features/shell/pageViews.tsx`.
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
  {
    id: 'protoqa',
    label: 'ProtoQA',
    hint: 'Cluster answers, compare reviewers, score predictions',
  },
  {
    id: 'crowdaq',
    label: 'CROWDAQ',
    hint: 'Exams, tutorials and tasks: preview, grade, report, qualify',
  },
] as const satisfies readonly { id: string; label: string; hint: string }[]

export type PageId = (typeof PAGES)[number]['id']

export function isPageId(value: unknown): value is PageId {
  return PAGES.some((p) => p.id === value)
}

/** The Go menu's command for a page. */
export type GoCommand = `go:${PageId}`

export function isGoCommand(command: string): command is GoCommand {
  return command.startsWith('go:') && isPageId(command.slice(3))
}
