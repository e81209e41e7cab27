/**
 * The review grid's cells, drawn as plain DOM rather than React: a screen of rows is a few hundred
 * cells, and a React root per cell made drawing them miss frames. Crowd text only ever
 * goes in as text nodes (textContent), never as HTML; matches are <mark> elements built here.
 */
import type { ICellRendererComp, ICellRendererParams } from 'ag-grid-community'
import type { ReviewRow } from '../../../../shared/contract/review'
import { dimensionInfo, isDimensionNumber } from '../../../../shared/glucose/dimensions'
import { describeFlags } from '../../../../shared/glucose/flags'
import {
  type Segment,
  fullTextTerms,
  highlightSearch,
  highlightSubstring,
} from '../../lib/highlight'
import { type RatingSource, SOURCE_MARK, SOURCE_TITLE } from '../ratings/RatingBadge'
import { ratingScale } from '../ratings/scale'
import { formatRating, levelFor, textOn } from '../ratings/scaleMath'
import type { WorkspaceModel } from './workspaceModel'

/** What every cell can reach through the grid's `context`. */
export interface GridContext {
  model: WorkspaceModel
}

type Cell = ICellRendererParams<ReviewRow, unknown, GridContext>

/** An element with a class, a title and text content (never HTML). */
function element(tag: string, className: string, text = '', title?: string): HTMLElement {
  const e = document.createElement(tag)
  if (className) e.className = className
  if (text) e.textContent = text
  if (title !== undefined) e.title = title
  return e
}

/**
 * A cell renderer class from a function that draws the cell. A refresh draws it again from
 * scratch (returning false), which the grid only asks for when a value or the highlight changed.
 */
function renderer(draw: (p: Cell) => HTMLElement | null): new () => ICellRendererComp<ReviewRow> {
  return class implements ICellRendererComp<ReviewRow> {
    private gui: HTMLElement | null = null
    init(p: Cell): void {
      this.gui = draw(p) ?? element('span', '')
    }
    getGui(): HTMLElement {
      return this.gui ?? element('span', '')
    }
    refresh(): boolean {
      return false
    }
  }
}

/** Text with its matching segments wrapped in <mark>, the rest as text nodes; no segments: plain text. */
function highlighted(className: string, text: string, segments: readonly Segment[]): HTMLElement {
  const span = element('span', className, '', text)
  if (segments.length === 0) span.textContent = text
  for (const s of segments) {
    if (s.match) span.append(element('mark', '', s.text))
    else span.append(document.createTextNode(s.text))
  }
  return span
}

const textOf = (value: unknown): string => (typeof value === 'string' ? value : '')

/** A statement or rule with the full-text search's matches marked. */
export const StatementCell = renderer((p) => {
  const s = textOf(p.value)
  const search = p.context.model.shown.get().text
  return highlighted('cell-text', s, search ? highlightSearch(s, fullTextTerms(search)) : [])
})

/** The selected sentence with the "sentence contains" text marked. */
export const SentenceCell = renderer((p) => {
  const s = textOf(p.value)
  const needle = p.context.model.shown.get().sentence
  return highlighted('cell-text', s, needle ? highlightSubstring(s, needle) : [])
})

export function dimensionLabel(n: number): string {
  return isDimensionNumber(n) ? `${n} · ${dimensionInfo(n).name}` : String(n)
}

export const DimensionCell = renderer(({ data }) => {
  if (!data) return null
  const known = isDimensionNumber(data.dimension)
  const cell = element(
    'span',
    'dimension',
    '',
    known ? dimensionInfo(data.dimension).question : undefined,
  )
  cell.append(
    element('span', 'dimension-number', String(data.dimension)),
    element('span', 'dimension-name', known ? dimensionInfo(data.dimension).name : ''),
  )
  return cell
})

export function ratingSource(code: number): RatingSource {
  return code === 2 ? 'item' : code === 1 ? 'worker' : 'none'
}

/** The rating as RatingBadge draws it: a pill in the scale's colour, its source in small type. */
export const RatingCell = renderer(({ data }) => {
  if (!data) return null
  if (data.rating === null) return element('span', 'rating rating-none', 'unrated')
  const source = ratingSource(data.ratingSource)
  const level = levelFor(ratingScale.get(), data.rating)
  const title = [level?.label, SOURCE_TITLE[source]].filter(Boolean).join(' · ')
  const badge = element('span', 'rating', '', title)
  const pill = element('span', 'rating-pill', formatRating(data.rating))
  if (level) {
    pill.style.background = level.color
    pill.style.color = textOn(level.color)
  }
  badge.append(pill)
  if (source !== 'none') badge.append(element('span', 'rating-source', SOURCE_MARK[source]))
  return badge
})

export function flagLabels(row: Pick<ReviewRow, 'flags' | 'submissionFlags'>): string[] {
  return describeFlags(row.flags | row.submissionFlags).map((f) => f.label)
}

export const FlagsCell = renderer(({ data }) => {
  if (!data) return null
  const labels = flagLabels(data)
  if (labels.length === 0) return null
  // Every reason as text: cut where the column is narrow, whole in wrapped rows and the title.
  return element('span', 'flag cell-text', `⚑ ${labels.join(' · ')}`, labels.join('\n'))
})

/** A worker id that opens the worker panel. */
export const WorkerCell = renderer(({ data, context, api, node, column }) => {
  if (!data) return null
  const workerId = data.workerId
  if (workerId === null) return element('span', 'note', '—')
  const button = element(
    'button',
    'link cell-link',
    workerId,
    `Worker ${workerId}: open the worker panel (w)`,
  )
  button.tabIndex = -1
  button.dataset.testid = 'worker-link'
  button.addEventListener('click', (e) => {
    e.stopPropagation()
    context.model.panel.set({ kind: 'worker', workerId })
    // Focus back on the cell, not the button: the keyboard keeps speaking to the row.
    if (node.rowIndex !== null && column) api.setFocusedCell(node.rowIndex, column)
  })
  return button
})

/** The whole story id: cut with an ellipsis where the column is narrow, wrapped in wrapped rows. */
export const StoryCell = renderer(({ value }) => {
  const s = textOf(value)
  return element('span', 'mono cell-text cell-id', s, s)
})

/** A row still loading: one empty full-width cell, thrown away when its data arrives. */
export const LoadingRow = renderer(() => null)
