import { createStore } from '../../lib/store'
import { ROW_HEIGHT } from './gridSetup'

/** How much of each row the grid shows: one dense line, one line, or whole texts over several lines. */
export type RowLayout = 'dense' | 'standard' | 'wrapped'

export const ROW_LAYOUTS: readonly { id: RowLayout; label: string; rowHeight: number }[] = [
  { id: 'dense', label: 'Dense rows', rowHeight: 24 },
  { id: 'standard', label: 'Standard rows', rowHeight: ROW_HEIGHT },
  // Four lines of text: the infinite row model needs one height for every row.
  { id: 'wrapped', label: 'Wrapped rows', rowHeight: 80 },
]

const KEY = 'winnow.rowLayout'

export function isRowLayout(value: unknown): value is RowLayout {
  return ROW_LAYOUTS.some((l) => l.id === value)
}

function saved(): RowLayout {
  try {
    const value = localStorage.getItem(KEY)
    return isRowLayout(value) ? value : 'standard'
  } catch {
    return 'standard'
  }
}

/** The layout chosen last (kept in the browser's storage, like a window size). */
export const rowLayout = createStore<RowLayout>(saved())

export function setRowLayout(layout: RowLayout): void {
  rowLayout.set(layout)
  try {
    localStorage.setItem(KEY, layout)
  } catch {
    // Storage refused (private window): the choice lasts for this session.
  }
}

export function rowHeightOf(layout: RowLayout): number {
  return ROW_LAYOUTS.find((l) => l.id === layout)?.rowHeight ?? ROW_HEIGHT
}
