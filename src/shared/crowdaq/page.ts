/** CROWDAQ's page: its tab, Go menu entry and key (after the project's own pages). */
export const crowdaqPage = {
  id: 'crowdaq',
  label: 'CROWDAQ',
  hint: 'Exams, tutorials and tasks: preview, grade, report, qualify',
  collection: 'crowdaq',
} as const
