import type { CustomCellRendererProps } from 'ag-grid-react'
import type { ReviewRow } from '../../../../shared/contract/review'
import { dimensionInfo, isDimensionNumber } from '../../../../shared/glucose/dimensions'
import { describeFlags } from '../../../../shared/glucose/flags'
import {
  type Segment,
  fullTextTerms,
  highlightSearch,
  highlightSubstring,
} from '../../lib/highlight'
import { useStore } from '../../lib/store'
import { RatingBadge, type RatingSource } from '../ratings/RatingBadge'
import { useWorkspace } from './workspaceModel'

type Cell = CustomCellRendererProps<ReviewRow>

/** Segments as text children; matches wrapped in <mark>. Never HTML. */
export function Highlighted({ segments }: { segments: readonly Segment[] }) {
  return (
    <>
      {segments.map((s, i) =>
        s.match ? <mark key={i}>{s.text}</mark> : <span key={i}>{s.text}</span>,
      )}
    </>
  )
}

/** A statement or rule with the full-text search's matches marked. */
export function StatementCell({ value }: Cell) {
  const model = useWorkspace()
  const text = useStore(model.shown).text
  const s = typeof value === 'string' ? value : ''
  return (
    <span className="cell-text" title={s}>
      <Highlighted
        segments={text ? highlightSearch(s, fullTextTerms(text)) : [{ text: s, match: false }]}
      />
    </span>
  )
}

/** The selected sentence with the "sentence contains" text marked. */
export function SentenceCell({ value }: Cell) {
  const model = useWorkspace()
  const needle = useStore(model.shown).sentence
  const s = typeof value === 'string' ? value : ''
  return (
    <span className="cell-text" title={s}>
      <Highlighted
        segments={needle ? highlightSubstring(s, needle) : [{ text: s, match: false }]}
      />
    </span>
  )
}

export function dimensionLabel(n: number): string {
  return isDimensionNumber(n) ? `${n} · ${dimensionInfo(n).name}` : String(n)
}

export function DimensionCell({ data }: Cell) {
  if (!data) return null
  const title = isDimensionNumber(data.dimension)
    ? dimensionInfo(data.dimension).question
    : undefined
  return (
    <span className="dimension" title={title}>
      <span className="dimension-number">{data.dimension}</span>
      <span className="dimension-name">
        {isDimensionNumber(data.dimension) ? dimensionInfo(data.dimension).name : ''}
      </span>
    </span>
  )
}

export function ratingSource(code: number): RatingSource {
  return code === 2 ? 'item' : code === 1 ? 'worker' : 'none'
}

export function RatingCell({ data }: Cell) {
  if (!data) return null
  return <RatingBadge value={data.rating} source={ratingSource(data.ratingSource)} />
}

export function flagLabels(row: Pick<ReviewRow, 'flags' | 'submissionFlags'>): string[] {
  return describeFlags(row.flags | row.submissionFlags).map((f) => f.label)
}

export function FlagsCell({ data }: Cell) {
  if (!data) return null
  const labels = flagLabels(data)
  if (labels.length === 0) return null
  return (
    <span className="flag" title={labels.join('\n')}>
      ⚑ {labels.length === 1 ? labels[0] : `${labels.length} flags`}
    </span>
  )
}

/** A worker id that opens the worker panel. */
export function WorkerCell({ data }: Cell) {
  const model = useWorkspace()
  if (!data) return null
  const workerId = data.workerId
  if (workerId === null) return <span className="note">—</span>
  return (
    <button
      className="link cell-link"
      tabIndex={-1}
      title={`Worker ${workerId}: open the worker panel (w)`}
      data-testid="worker-link"
      onClick={(e) => {
        e.stopPropagation()
        model.panel.set({ kind: 'worker', workerId })
      }}
    >
      {workerId}
    </button>
  )
}

export function StoryCell({ value }: Cell) {
  const s = typeof value === 'string' ? value : ''
  return (
    <span className="mono cell-text" title={s}>
      {s.length > 13 ? `${s.slice(0, 8)}…` : s}
    </span>
  )
}
