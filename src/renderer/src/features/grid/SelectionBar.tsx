import { useState } from 'react'
import { describeFilter } from '../../../../shared/filter'
import { api } from '../../api'
import { formatCount, plural } from '../../lib/format'
import { useStore } from '../../lib/store'
import { ConfirmRating } from '../ratings/ConfirmRating'
import { ratingScale } from '../ratings/scale'
import { ratingText } from '../ratings/scaleMath'
import { SelectionMTurkMenu } from '../mturk/SelectionMTurkMenu'
import { Menu } from '../shell/Menu'
import { canChangeRatings, clearSelection, copySelection, selectAllOfQuery } from './actions'
import { type Selection, useWorkspace } from './workspaceModel'

interface BulkRating {
  rating: number | null
  selection: Selection
}

/** What is selected, and what can be done with it: copy, rate in bulk, widen to the whole query. */
export function SelectionBar() {
  const model = useWorkspace()
  const selection = useStore(model.selection)
  const total = useStore(model.total)
  const scale = useStore(ratingScale)
  const [bulk, setBulk] = useState<BulkRating | null>(null)

  const count = selection.mode === 'query' ? selection.total : selection.rows.size
  if (count === 0) return null

  const rateItems = [
    ...scale.map((l) => ({
      label: `Rate ${ratingText(l.value, scale)}`,
      testId: 'bulk-rate-option',
      onSelect: () => canChangeRatings() && setBulk({ rating: l.value, selection }),
    })),
    { separator: true, label: '' },
    {
      label: 'Clear item ratings',
      title: 'Fall back to the worker timeline',
      onSelect: () => canChangeRatings() && setBulk({ rating: null, selection }),
    },
  ]

  return (
    <div className="selection-bar" data-testid="selection-bar">
      <span className="selection-count" data-testid="selection-count">
        {selection.mode === 'query'
          ? `All ${plural(selection.total, 'row')} of this query selected`
          : `${formatCount(count)} selected`}
      </span>
      {selection.mode === 'rows' && total !== null && total > count && (
        <button
          className="link"
          data-testid="select-all-query"
          onClick={() => selectAllOfQuery(model)}
        >
          Select all {formatCount(total)} rows of this query
        </button>
      )}
      <span className="toolbar-spacer" />
      <button
        className="small"
        onClick={() => void copySelection(model)}
        title="Copy as TSV (Ctrl+C)"
        data-testid="copy-tsv"
      >
        Copy
      </button>
      <Menu label="Rate…" items={rateItems} buttonClass="small" testId="bulk-rate" />
      <SelectionMTurkMenu selection={selection} />
      <button className="small" onClick={() => clearSelection(model)} data-testid="clear-selection">
        Clear
      </button>
      {bulk && <BulkConfirm bulk={bulk} onClose={() => setBulk(null)} />}
    </div>
  )
}

function BulkConfirm({ bulk, onClose }: { bulk: BulkRating; onClose: () => void }) {
  const scale = useStore(ratingScale)
  const { rating, selection } = bulk
  const target =
    selection.mode === 'query'
      ? `all ${plural(selection.total, 'annotation')} of this query (${describeFilter(selection.filter)})`
      : `the ${formatCount(selection.rows.size)} selected annotation${selection.rows.size === 1 ? '' : 's'}`
  const summary =
    rating === null
      ? `Clear the item ratings of ${target}; they fall back to their workers’ timelines.`
      : `Rate ${target} as ${ratingText(rating, scale)}.`
  return (
    <ConfirmRating
      title="Rate in bulk"
      summary={summary}
      confirmLabel={rating === null ? 'Clear ratings' : 'Rate'}
      onClose={onClose}
      run={(preview) =>
        selection.mode === 'query'
          ? api.ratings.rateQuery({ filter: selection.filter, rating, preview })
          : api.ratings.rateItems({ annotationIds: [...selection.rows.keys()], rating, preview })
      }
    />
  )
}
