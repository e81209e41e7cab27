import type { RefObject } from 'react'
import type { DimensionCells } from '../../../../shared/contract/review'
import type { TriageMark, TriageQueueItem } from '../../../../shared/contract/triage'
import { dimensionInfo } from '../../../../shared/glucose/dimensions'
import { ratingSource } from '../grid/cells'
import { RateKeys } from '../ratings/RateKeys'
import { RatingBadge } from '../ratings/RatingBadge'

export const MARK_LABEL: Record<TriageMark, string> = {
  good: 'good',
  'needs-work': 'needs work',
  bad: 'bad',
}

interface TriageAnnotationProps {
  cells: DimensionCells
  mark: TriageQueueItem['marks'][number] | undefined
  current: boolean
  onPick: () => void
  onMark: (mark: TriageMark) => void
  /** The note of its mark, or the one written for the mark it has yet to get. */
  note: string
  onNote: (note: string) => void
  /** The note field was left: a marked annotation's note is saved. */
  onNoteDone: () => void
  noteRef: RefObject<HTMLInputElement | null>
}

/**
 * One annotation of the queue's submission: its dimension, texts, mark and rating. The one picked
 * also shows the mark buttons, the note field and the rating keys.
 */
export function TriageAnnotation({
  cells,
  mark,
  current,
  onPick,
  onMark,
  note,
  onNote,
  onNoteDone,
  noteRef,
}: TriageAnnotationProps) {
  return (
    <li
      className={`triage-annotation${current ? ' current' : ''}`}
      data-testid="triage-annotation"
      data-mark={mark?.mark ?? ''}
      data-rating={cells.rating ?? ''}
      aria-current={current}
      onClick={onPick}
    >
      <div className="triage-annotation-head">
        <strong>
          {cells.dimension}. {dimensionInfo(cells.dimension).name}
        </strong>
        <RatingBadge value={cells.rating} source={ratingSource(cells.ratingSource)} />
        {mark && (
          <span className={`badge mark-${mark.mark}`}>
            {MARK_LABEL[mark.mark]}
            {mark.note ? `: ${mark.note}` : ''}
          </span>
        )}
      </div>
      <div>{cells.specificNL}</div>
      <div className="note">{cells.generalNL}</div>
      {current && cells.annotationId !== null && (
        <>
          <div className="triage-mark-actions">
            <button
              data-testid="mark-good"
              aria-pressed={mark?.mark === 'good'}
              onClick={() => onMark('good')}
            >
              Good <kbd>G</kbd>
            </button>
            <button
              data-testid="mark-needs-work"
              aria-pressed={mark?.mark === 'needs-work'}
              onClick={() => onMark('needs-work')}
            >
              Needs work <kbd>W</kbd>
            </button>
            <button
              data-testid="mark-bad"
              aria-pressed={mark?.mark === 'bad'}
              onClick={() => onMark('bad')}
            >
              Bad <kbd>B</kbd>
            </button>
            <input
              ref={noteRef}
              className="triage-note"
              placeholder={mark ? 'note on this mark (N)' : 'note for its mark (N)'}
              title={
                mark
                  ? 'The note of this mark, saved when you leave the field (Enter or Esc)'
                  : 'Saved with the mark this annotation gets next (g / w / b)'
              }
              value={note}
              aria-label="Note for the mark"
              data-testid="triage-note"
              onChange={(e) => onNote(e.target.value)}
              onBlur={onNoteDone}
              onKeyDown={(e) => {
                // Back to the queue's keys; the note is saved on leaving (onBlur).
                if (e.key === 'Enter' || e.key === 'Escape') {
                  e.preventDefault()
                  e.stopPropagation()
                  e.currentTarget.blur()
                }
              }}
            />
          </div>
          <RateKeys annotationId={cells.annotationId} />
        </>
      )}
    </li>
  )
}
