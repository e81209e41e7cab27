import type { ColDef } from 'ag-grid-community'
import type { ReviewRow } from '../../../../shared/contract/review'
import type { SortColumn } from '../../../../shared/filter'
import { formatDay } from '../../lib/format'
import type { TsvValue } from '../../../../shared/tsv'
import {
  DimensionCell,
  FlagsCell,
  RatingCell,
  SentenceCell,
  StatementCell,
  StoryCell,
  WorkerCell,
  dimensionLabel,
  flagLabels,
} from './cells'

/** A grid column: its ag-grid definition and how it reads as text (copy as TSV). */
export interface ReviewColumn {
  id: SortColumn
  header: string
  text: (row: ReviewRow) => TsvValue
  def: Omit<ColDef<ReviewRow>, 'colId' | 'headerName'>
}

export const reviewColumns: readonly ReviewColumn[] = [
  {
    id: 'workerId',
    header: 'Worker',
    text: (r) => r.workerId,
    // Sized to the ids on screen once rows arrive (MTurk ids are 12–14 characters).
    def: { field: 'workerId', width: 100, minWidth: 70, cellRenderer: WorkerCell },
  },
  {
    id: 'storyId',
    header: 'Story',
    text: (r) => r.storyId,
    def: { field: 'storyId', width: 100, cellRenderer: StoryCell },
  },
  {
    id: 'sentenceIndex',
    header: 'Sent.',
    text: (r) => r.sentenceIndex,
    def: {
      field: 'sentenceIndex',
      width: 62,
      type: 'rightAligned',
      headerTooltip: 'Selected sentence index (0–4)',
    },
  },
  {
    id: 'sentence',
    header: 'Selected sentence',
    text: (r) => r.sentence,
    def: { field: 'sentence', width: 220, cellRenderer: SentenceCell },
  },
  {
    id: 'dimension',
    header: 'Dimension',
    text: (r) => dimensionLabel(r.dimension),
    def: { field: 'dimension', width: 160, cellRenderer: DimensionCell },
  },
  {
    id: 'specificNL',
    header: 'Specific statement',
    text: (r) => r.specificNL,
    def: { field: 'specificNL', flex: 1, minWidth: 200, cellRenderer: StatementCell },
  },
  {
    id: 'generalNL',
    header: 'General rule',
    text: (r) => r.generalNL,
    def: { field: 'generalNL', flex: 1, minWidth: 200, cellRenderer: StatementCell },
  },
  {
    id: 'submittedAt',
    header: 'Submitted',
    text: (r) => formatDay(r.submittedAt),
    def: {
      field: 'submittedAt',
      width: 100,
      valueFormatter: (p) => formatDay(p.value as number | null | undefined),
    },
  },
  {
    id: 'rating',
    header: 'Rating',
    text: (r) => r.rating,
    // Rating and flags stay in view at the right edge however wide the texts are.
    def: { field: 'rating', width: 100, pinned: 'right', cellRenderer: RatingCell },
  },
  {
    id: 'flags',
    header: 'Flags',
    text: (r) => flagLabels(r).join('; '),
    def: { field: 'flags', width: 120, pinned: 'right', cellRenderer: FlagsCell },
  },
]

export function columnDefs(): ColDef<ReviewRow>[] {
  return reviewColumns.map((c) => ({ colId: c.id, headerName: c.header, ...c.def }))
}

export function columnById(id: string): ReviewColumn | undefined {
  return reviewColumns.find((c) => c.id === id)
}
