import { useStore } from '../../lib/store'
import { ROW_LAYOUTS, isRowLayout, rowLayout, setRowLayout } from './rowLayout'

/** Dense, standard or wrapped rows (wrapped rows show statements and ids whole). */
export function RowLayoutPick() {
  const layout = useStore(rowLayout)
  return (
    <select
      className="filter-button row-layout"
      aria-label="Row layout"
      title="Dense rows fit more on screen; wrapped rows show long statements and ids whole"
      data-testid="row-layout"
      value={layout}
      onChange={(e) => {
        if (isRowLayout(e.target.value)) setRowLayout(e.target.value)
      }}
    >
      {ROW_LAYOUTS.map((l) => (
        <option key={l.id} value={l.id}>
          {l.label}
        </option>
      ))}
    </select>
  )
}
