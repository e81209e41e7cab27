/** HALIE's page: its tab, Go menu entry and key (after the project's own pages). */
export const haliePage = {
  id: 'halie',
  label: 'HALIE',
  hint: 'Human–LM interaction sessions: filter, replay, chart, rate',
  collection: 'halie',
} as const
