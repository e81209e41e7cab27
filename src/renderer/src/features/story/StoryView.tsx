import { type KeyboardEvent, useEffect, useRef, useState } from 'react'
import type { DimensionCells, StoryContext } from '../../../../shared/contract/review'
import { DIMENSIONS, dimensionInfo, isDimensionNumber } from '../../../../shared/glucose/dimensions'
import { describeFlags } from '../../../../shared/glucose/flags'
import { api } from '../../api'
import { formatDay } from '../../lib/format'
import { isPrimaryModifier, isTypingTarget } from '../../lib/keys'
import { useStore } from '../../lib/store'
import { showError } from '../messages/messages'
import { projectState } from '../project/project'
import { RateKeys } from '../ratings/RateKeys'
import { RatingBadge } from '../ratings/RatingBadge'
import { focusedRow, moveFocus, rateFocused, rateInStory, ratingForKey } from '../grid/actions'
import { ratingSource } from '../grid/cells'
import { useWorkspace } from '../grid/workspaceModel'
import { PanelHead } from '../shell/PanelHead'
import { SlotChips } from './SlotChips'

/**
 * The story around the focused row: the story with the selected sentence marked, the submission's
 * ten dimensions side by side, the chosen dimension as text and slots, and the other workers'
 * annotations of the same sentence and dimension. Follows the grid's focus (j/k, ↑/↓).
 */
export function StoryView({ onClose }: { onClose: () => void }) {
  const model = useWorkspace()
  const focused = useStore(model.focused)
  const { dataVersion } = useStore(projectState)
  const row = focused?.row
  const [picked, setPicked] = useState<{ annotationId: number; dimension: number } | null>(null)
  const dimension =
    picked && picked.annotationId === row?.id ? picked.dimension : (row?.dimension ?? 1)
  const [story, setStory] = useState<StoryContext | null>(null)
  const [loadedFor, setLoadedFor] = useState<string>('')
  const panel = useRef<HTMLElement>(null)
  const want = row ? `${row.id}:${dimension}:${dataVersion}` : ''

  useEffect(() => {
    if (!row) return
    let live = true
    api.review
      .story({ annotationId: row.id, dimension })
      .then((s) => {
        if (!live) return
        setStory(s)
        setLoadedFor(`${row.id}:${dimension}:${dataVersion}`)
      })
      .catch((e: unknown) => live && showError('Opening the story', e))
    return () => {
      live = false
    }
  }, [row, dimension, dataVersion])

  const cells = story?.submission.dimensions.find((d) => d.dimension === dimension)
  const stale = loadedFor !== want

  function onKeyDown(e: KeyboardEvent) {
    if (isTypingTarget(e.target) || isPrimaryModifier(e) || e.altKey) return
    const key = e.key
    if (key === 'j' || key === 'ArrowDown' || key === 'k' || key === 'ArrowUp') {
      e.preventDefault()
      moveFocus(model, key === 'j' || key === 'ArrowDown' ? 1 : -1)
      return
    }
    if (key === 'Escape') {
      e.preventDefault()
      onClose()
      return
    }
    const rating = key === 'x' ? null : ratingForKey(e.nativeEvent)
    if (rating === undefined) return
    e.preventDefault()
    // Focus has moved on (j then a digit, quicker than the story loads): the key is for the row
    // focus is on now, as in the grid, not for the story still on screen.
    if (!story || stale || focusedRow(model)?.row.id !== row?.id) {
      void rateFocused(model, rating, rating !== null && e.shiftKey)
      return
    }
    const shown = { submissionId: story.submission.id, annotationId: cells?.annotationId ?? null }
    void rateInStory(shown, rating, e.shiftKey)
  }

  if (!row) {
    return (
      <section className="side-panel story-view" data-testid="story-view" ref={panel}>
        <PanelHead title="Story" onClose={onClose} />
        <p className="side-body note">Focus a row in the grid.</p>
      </section>
    )
  }

  return (
    <section
      className="side-panel story-view"
      data-testid="story-view"
      data-annotation={row.id}
      aria-label="Story view"
      tabIndex={-1}
      ref={panel}
      onKeyDown={onKeyDown}
    >
      <PanelHead
        title="Story"
        subtitle={story?.storyId ?? row.storyId}
        onClose={onClose}
        extra={
          <span className="note">
            row {(focused?.index ?? 0) + 1}
            {stale && ' · loading…'}
          </span>
        }
      />
      {story && (
        <div className={`side-body ${stale ? 'is-stale' : ''}`}>
          <SubmissionLine
            story={story}
            onWorker={(w) => model.panel.set({ kind: 'worker', workerId: w })}
          />
          <StoryText story={story} />
          <h4 className="section-title">Dimensions of this submission</h4>
          <DimensionGrid
            cells={story.submission.dimensions}
            current={dimension}
            onPick={(d) => setPicked({ annotationId: row.id, dimension: d })}
          />
          {cells && <DimensionDetail cells={cells} />}
          <Peers story={story} onWorker={(w) => model.panel.set({ kind: 'worker', workerId: w })} />
        </div>
      )}
    </section>
  )
}

function SubmissionLine({
  story,
  onWorker,
}: {
  story: StoryContext
  onWorker: (id: string) => void
}) {
  const s = story.submission
  const flags = describeFlags(s.flags)
  return (
    <div className="submission-line">
      {s.workerId && (
        <span>
          worker{' '}
          <button
            className="link mono"
            onClick={() => onWorker(s.workerId ?? '')}
            data-testid="story-worker"
          >
            {s.workerId}
          </button>
        </span>
      )}
      {s.submittedAt !== null && <span>submitted {formatDay(s.submittedAt)}</span>}
      {s.assignmentId && (
        <span className="mono note" title="Assignment id">
          {s.assignmentId}
        </span>
      )}
      {s.fileRating !== null && (
        <span>
          file rating <RatingBadge value={s.fileRating} />
        </span>
      )}
      {flags.map((f) => (
        <span key={f.name} className="badge badge-warn">
          {f.label}
        </span>
      ))}
    </div>
  )
}

/** The story as text with the selected sentence wrapped in a <mark>, located by main. */
export function StoryText({ story }: { story: StoryContext }) {
  const range = story.sentenceRange
  if (!range) {
    return (
      <div className="story-text">
        <p>{story.storyText}</p>
        <p className="note">
          Selected sentence {story.sentenceIndex} (not found in the story text):{' '}
          <mark className="story-sentence" data-testid="story-sentence-highlight">
            {story.sentence}
          </mark>
        </p>
      </div>
    )
  }
  const [start, end] = range
  return (
    <p className="story-text">
      {story.storyText.slice(0, start)}
      <mark className="story-sentence" data-testid="story-sentence-highlight">
        {story.storyText.slice(start, end)}
      </mark>
      {story.storyText.slice(end)}
    </p>
  )
}

function DimensionGrid({
  cells,
  current,
  onPick,
}: {
  cells: DimensionCells[]
  current: number
  onPick: (d: number) => void
}) {
  return (
    <div className="dimension-grid" role="list">
      {DIMENSIONS.map((d) => {
        const c = cells.find((x) => x.dimension === d.number)
        const empty = !c || c.annotationId === null
        return (
          <button
            key={d.number}
            role="listitem"
            className={`dimension-cell ${empty ? 'is-empty' : ''} ${d.number === current ? 'is-current' : ''}`}
            title={d.question}
            data-testid="story-dimension"
            data-dimension={d.number}
            aria-pressed={d.number === current}
            onClick={() => onPick(d.number)}
          >
            <span className="dimension-cell-head">
              <span className="dimension-number">{d.number}</span>
              {!empty && c && <RatingBadge value={c.rating} />}
            </span>
            <span className="dimension-cell-name">{d.name}</span>
            <span className="dimension-cell-text">{empty ? 'empty' : (c?.specificNL ?? '')}</span>
          </button>
        )
      })}
    </div>
  )
}

function DimensionDetail({ cells }: { cells: DimensionCells }) {
  const info = isDimensionNumber(cells.dimension) ? dimensionInfo(cells.dimension) : null
  if (cells.annotationId === null) {
    return (
      <div className="dimension-detail is-empty">
        <h3>
          {cells.dimension} · {info?.name}
        </h3>
        <p className="note">The worker left this dimension empty.</p>
      </div>
    )
  }
  const flags = describeFlags(cells.flags)
  return (
    <div className="dimension-detail" data-testid="dimension-detail">
      <div className="detail-head">
        <h3>
          {cells.dimension} · {info?.name}
        </h3>
        <RatingBadge value={cells.rating} source={ratingSource(cells.ratingSource)} />
      </div>
      {info && <p className="note question">{info.question}</p>}
      <div className="statement">
        <h4>Specific statement</h4>
        <p className="statement-text" data-testid="story-specific">
          {cells.specificNL}
        </p>
        <SlotChips nl={cells.specificNL ?? ''} structured={cells.specificStructured} />
      </div>
      <div className="statement">
        <h4>General rule</h4>
        <p className="statement-text" data-testid="story-general">
          {cells.generalNL}
        </p>
        <SlotChips nl={cells.generalNL ?? ''} structured={cells.generalStructured} />
      </div>
      {flags.length > 0 && (
        <div className="flag-list">
          {flags.map((f) => (
            <span key={f.name} className="badge badge-warn">
              {f.label}
            </span>
          ))}
        </div>
      )}
      <RateKeys annotationId={cells.annotationId} />
    </div>
  )
}

function Peers({ story, onWorker }: { story: StoryContext; onWorker: (id: string) => void }) {
  return (
    <div className="peers" data-testid="story-peers">
      <h4 className="section-title">
        Other workers on this sentence, dimension {story.dimension} ({story.peers.length})
      </h4>
      {story.peers.length === 0 && (
        <p className="note">No other worker annotated this sentence and dimension.</p>
      )}
      {story.peers.map((p) => (
        <div key={p.annotationId} className="peer" data-testid="story-peer">
          <div className="peer-head">
            {p.workerId ? (
              <button className="link mono" onClick={() => onWorker(p.workerId ?? '')}>
                {p.workerId}
              </button>
            ) : (
              <span className="note">no worker</span>
            )}
            <span className="note">{formatDay(p.submittedAt)}</span>
            <RatingBadge value={p.rating} />
          </div>
          <p className="peer-text">{p.specificNL}</p>
          <p className="peer-text note">{p.generalNL}</p>
        </div>
      ))}
    </div>
  )
}
