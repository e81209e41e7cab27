import { useState } from 'react'
import { MultiPick } from './MultiPick'
import { reviewColumns } from './columns'
import { useWorkspace } from './workspaceModel'

/** Show or hide columns (resize and reorder by dragging the headers). */
export function ColumnsMenu() {
  const model = useWorkspace()
  const [hidden, setHidden] = useState<string[]>([])
  const visible = reviewColumns.map((c) => c.id).filter((id) => !hidden.includes(id))

  return (
    <div
      onMouseDownCapture={() => {
        // Read the grid's state as the menu opens (a view may have changed it).
        const grid = model.grid.get()
        if (grid)
          setHidden(
            grid
              .getColumnState()
              .filter((c) => c.hide)
              .map((c) => c.colId),
          )
      }}
    >
      <MultiPick
        label="Columns"
        testId="columns-menu"
        align="end"
        options={reviewColumns.map((c) => ({ value: c.id, name: c.header, label: c.header }))}
        selected={visible}
        summary={`${visible.length}/${reviewColumns.length}`}
        active={visible.length < reviewColumns.length}
        onToggle={(id, on) => {
          model.grid.get()?.setColumnsVisible([id], on)
          setHidden((h) => (on ? h.filter((x) => x !== id) : [...h, id]))
        }}
      />
    </div>
  )
}
