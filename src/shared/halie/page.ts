/** HALIE's page: its tab, Go menu entry and key (after the project's own pages). */
export const haliePage = {
  id: 'halie',
  label: 'HALIE',
  hint: 'Human–LM interaction sessions: filter, replay, chart, rate',
  collection: 'halie',
  /** Its release, written from its page's tab (`winnow export --collection halie`). */
  release: { tab: 'release', what: 'a task per tier, its rows as imported' },
} as const
