import type { ReviewRow } from '../../../../shared/contract/review'
import { api } from '../../api'
import { formatCount, plural } from '../../lib/format'
import { toTsv } from '../../../../shared/tsv'
import { showError, showInfo } from '../messages/messages'
import { asOf, describeResult, inTurn, ratingsChanged } from '../ratings/ratingState'
import { ratingScale } from '../ratings/scale'
import { undoAction } from '../ratings/undoChange'
import { keyedLevels, ratingText } from '../ratings/scaleMath'
import { writeClipboard } from './clipboard'
import { columnById } from './columns'
import { NO_SELECTION, type WorkspaceModel, currentFilter } from './workspaceModel'

/**
 * The row the keyboard acts on now. The grid's focused cell moves the moment a key moves it;
 * the browser's focus, the key events' own row and `model.focused` follow a moment later, after
 * keys pressed in quick succession (j then 2, a held j) have already arrived. A focused row still
 * loading is no row at all; without a focused cell (focus in a panel) it is the row last focused.
 */
export function focusedRow(model: WorkspaceModel): { row: ReviewRow; index: number } | null {
  const index = model.grid.get()?.getFocusedCell()?.rowIndex
  if (index === undefined || index === null) return model.focused.get()
  const row = model.grid.get()?.getDisplayedRowAtIndex(index)?.data
  return row ? { row, index } : null
}

/** The index of the row focus is on (loaded or not), as `focusedRow` reads it. */
export function focusedIndex(model: WorkspaceModel): number | null {
  return model.grid.get()?.getFocusedCell()?.rowIndex ?? model.focused.get()?.index ?? null
}

/** Moves the grid's focus `delta` rows (j/k, arrows in the story view), scrolling as needed. */
export function moveFocus(model: WorkspaceModel, delta: number): void {
  const grid = model.grid.get()
  // While a text filter's total is counted, the rows the grid holds bound the steps.
  const total = model.total.get() ?? grid?.getDisplayedRowCount()
  if (!grid || !total) return
  const focusedCell = grid.getFocusedCell()
  const at = focusedIndex(model) ?? -1
  const index = Math.max(0, Math.min(total - 1, at + delta))
  grid.ensureIndexVisible(index)
  grid.setFocusedCell(index, focusedCell?.column ?? 'specificNL')
}

/** Gives the keyboard back to the grid's focused cell (after a panel closes). */
export function focusGrid(model: WorkspaceModel): void {
  const grid = model.grid.get()
  const cell = grid?.getFocusedCell()
  if (grid && cell) grid.setFocusedCell(cell.rowIndex, cell.column)
}

/** Takes the keyboard from a filter field to the first row its query found (Enter or ↓). */
export function focusFirstRow(model: WorkspaceModel): void {
  const grid = model.grid.get()
  if (!grid || !(model.total.get() ?? grid.getDisplayedRowCount())) return
  grid.ensureIndexVisible(0)
  grid.setFocusedCell(0, grid.getFocusedCell()?.column ?? 'specificNL')
}

/** Every row of the current query, as the query itself. */
export function selectAllOfQuery(model: WorkspaceModel): void {
  const total = model.total.get()
  if (total === null || total === 0) return
  model.grid.get()?.deselectAll()
  model.selection.set({ mode: 'query', filter: currentFilter(model), total })
}

export function clearSelection(model: WorkspaceModel): void {
  model.grid.get()?.deselectAll()
  model.selection.set(NO_SELECTION)
}

/** The columns as shown (order and visibility), for copying. */
function shownColumns(model: WorkspaceModel) {
  const grid = model.grid.get()
  const ids = grid ? grid.getAllDisplayedColumns().map((c) => c.getColId()) : []
  return ids.flatMap((id) => {
    const column = columnById(id)
    return column ? [{ header: column.header, value: column.text }] : []
  })
}

/**
 * Copies the selection as TSV: selected rows as the columns are shown; a whole query through main
 * (which caps very large copies and says so). With nothing selected, the focused row.
 */
export async function copySelection(model: WorkspaceModel): Promise<void> {
  const selection = model.selection.get()
  try {
    if (selection.mode === 'query') {
      const when = asOf.get()
      const result = await api.review.rowsAsTsv({
        filter: selection.filter,
        sort: model.sort.get(),
        ...(when !== null ? { asOf: when } : {}),
      })
      await writeClipboard(result.tsv)
      showInfo(
        result.truncated
          ? `Copied the first ${formatCount(result.rows)} of ${plural(result.total, 'row')}.`
          : `Copied ${plural(result.rows, 'row')}.`,
      )
      return
    }
    let rows: ReviewRow[] = [...selection.rows.values()]
    if (rows.length === 0) {
      const focused = focusedRow(model)
      if (!focused) return
      rows = [focused.row]
    }
    const columns = [
      { header: 'Annotation', value: (r: ReviewRow) => r.id },
      ...shownColumns(model),
    ]
    await writeClipboard(toTsv(columns, rows))
    showInfo(`Copied ${plural(rows.length, 'row')}.`)
  } catch (e) {
    showError('Copying rows', e)
  }
}

function refuseInPast(): boolean {
  if (asOf.get() === null) return false
  showInfo('You are looking at the past (as of). Return to now to change ratings.')
  return true
}

/** What a rating key acts on: one annotation, or a whole submission (all its annotations). */
export type RatingTarget = { kind: 'annotation'; id: number } | { kind: 'submission'; id: number }

export function rateTarget(target: RatingTarget, rating: number | null): Promise<void> {
  if (refuseInPast()) return Promise.resolve()
  return inTurn(() => rateNow(target, rating))
}

async function rateNow(target: RatingTarget, rating: number | null): Promise<void> {
  try {
    const result = await api.ratings.rateItems(
      target.kind === 'submission'
        ? { submissionIds: [target.id], rating }
        : { annotationIds: [target.id], rating },
    )
    const what = `${target.kind === 'submission' ? 'Submission' : 'Annotation'} ${target.id}`
    const to =
      rating === null ? 'item rating cleared' : `rated ${ratingText(rating, ratingScale.get())}`
    showInfo(
      `${what} ${to}: ${describeResult(result)}.`,
      undoAction(result.changeSet, `${what} ${to}`),
    )
    ratingsChanged()
  } catch (e) {
    showError('Rating', e)
  }
}

/**
 * A rating key in a story (the story view, the triage queue): the annotation shown, or with Shift
 * its whole submission; `null` (x) clears the annotation's item rating.
 */
export function rateInStory(
  shown: { submissionId: number; annotationId: number | null },
  rating: number | null,
  whole: boolean,
): Promise<void> {
  if (whole && rating !== null)
    return rateTarget({ kind: 'submission', id: shown.submissionId }, rating)
  if (shown.annotationId === null) return Promise.resolve()
  return rateTarget({ kind: 'annotation', id: shown.annotationId }, rating)
}

/** Keys 1/2/3… in the grid: the focused row's annotation (Shift: its whole submission). */
export function rateFocused(
  model: WorkspaceModel,
  rating: number | null,
  whole: boolean,
): Promise<void> {
  const focused = focusedRow(model)
  if (!focused) return Promise.resolve()
  const { row } = focused
  return rateTarget(
    whole ? { kind: 'submission', id: row.submissionId } : { kind: 'annotation', id: row.id },
    rating,
  )
}

/** The rating a digit key stands for on this project's scale (Shift+digit arrives as e.code). */
export function ratingForKey(e: KeyboardEvent | { code: string }): number | undefined {
  const digit = /^(?:Digit|Numpad)(\d)$/.exec(e.code)?.[1]
  if (digit === undefined) return undefined
  return keyedLevels(ratingScale.get()).find((k) => k.key === digit)?.level.value
}

export function canChangeRatings(): boolean {
  return !refuseInPast()
}
