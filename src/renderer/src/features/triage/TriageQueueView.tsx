import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import type { StoryContext } from '../../../../shared/contract/review'
import type { TriageMark, TriageQueue } from '../../../../shared/contract/triage'
import { api } from '../../api'
import { formatDay } from '../../lib/format'
import { isPrimaryModifier, isTypingTarget } from '../../lib/keys'
import { useStore } from '../../lib/store'
import { useLatest } from '../../lib/useLatest'
import { rateInStory, ratingForKey } from '../grid/actions'
import { explainUnkeyedDigit } from '../grid/ratingKeys'
import { showError } from '../messages/messages'
import { type CommitDay, RateWorkerDialog } from '../ratings/RateWorkerDialog'
import { ratingsVersion, undoKey } from '../ratings/ratingState'
import { StoryText } from '../story/StoryView'
import { FeedbackSender } from './FeedbackSender'
import { TriageAnnotation } from './TriageAnnotation'
import { TriageSummary } from './TriageSummary'
import { TriageTeam } from './TriageTeam'

const MARK_KEYS: Record<string, TriageMark | null> = {
  g: 'good',
  w: 'needs-work',
  b: 'bad',
  x: null,
}

interface QueueViewProps {
  queue: TriageQueue
  onChange: (queue: TriageQueue) => void
  onLeave: () => void
}

/**
 * The triage queue in the story view: one sampled submission at a time with its story and every
 * filled dimension. Keys: ↑/↓ pick an annotation, g / w / b mark the picked one good / needs work
 * / bad and leave the pick where it is (x clears), n writes the note of its mark, digits rate it
 * as in the review grid (Shift: the whole submission), Enter or → next submission, ← back, r rates
 * the worker, f writes feedback, Esc leaves a text field, then the queue.
 */
export function TriageQueueView({ queue, onChange, onLeave }: QueueViewProps) {
  const [position, setPosition] = useState(queue.next ?? queue.items.length)
  const item = queue.items[position - 1]
  const [loaded, setLoaded] = useState<{ first: number; story: StoryContext } | null>(null)
  // The annotation picked, per item: moving to another item starts at its first annotation.
  const [pick, setPick] = useState({ position, index: 0 })
  const picked = pick.position === position ? pick.index : 0
  const setPicked = (f: (index: number) => number) =>
    setPick((p) => ({ position, index: f(p.position === position ? p.index : 0) }))
  const [rating, setRating] = useState<{ id: number; externalId: string } | null>(null)
  // Notes being written, per annotation: saved on its mark when the field is left, or, while the
  // annotation has no mark, with the mark it is given next.
  const [drafts, setDrafts] = useState<ReadonlyMap<number, string>>(new Map())
  // The queue's writes go one after another, each seeing the queue the one before left (a note
  // saved on leaving its field, a mark pressed right before or after it).
  const writes = useRef<Promise<void>>(Promise.resolve())
  // The marks are written from here, so the queue the last write returned has the latest; undo
  // and redo change them too, and the queue read again after one is then the latest.
  const written = useRef(queue)
  useEffect(() => {
    written.current = queue
  }, [queue])
  const feedbackRef = useRef<HTMLTextAreaElement>(null)
  const noteRef = useRef<HTMLInputElement>(null)
  const version = useStore(ratingsVersion)
  const done = queue.items.filter((i) => i.reviewedAt !== null).length

  const first = item?.annotationIds[0]
  // Kept while a rating change reloads it: only another submission blanks the story.
  const story = loaded !== null && loaded.first === first ? loaded.story : null
  useEffect(() => {
    if (first === undefined) return
    let live = true
    api.review
      .story({ annotationId: first })
      .then((s) => live && setLoaded({ first, story: s }))
      .catch((e: unknown) => live && showError('Opening the story', e))
    return () => {
      live = false
    }
  }, [first, version])

  const filled = story?.submission.dimensions.filter((d) => d.annotationId !== null) ?? []
  const current = filled[Math.min(picked, filled.length - 1)]
  const markOf = (annotationId: number | null) =>
    item?.marks.find((m) => m.annotationId === annotationId)

  /** A digit: the picked annotation's rating, or with Shift the whole submission's. */
  const rate = (rating: number, whole: boolean) => {
    if (!story) return
    const shown = { submissionId: story.submission.id, annotationId: current?.annotationId ?? null }
    void rateInStory(shown, rating, whole)
  }

  /** Queues a write: `request` is asked when the writes before it are done (null: nothing). */
  const write = (request: () => Parameters<typeof api.triage.mark>[0] | null) => {
    writes.current = writes.current.then(async () => {
      try {
        const asked = request()
        if (!asked) return
        written.current = await api.triage.mark(asked)
        onChange(written.current)
      } catch (e) {
        showError('Marking the annotation', e)
      }
    })
  }
  /** Drops an annotation's note draft (only if it still reads `text`, when given). */
  const dropDraft = (annotationId: number, text?: string) =>
    setDrafts((d) =>
      text !== undefined && d.get(annotationId) !== text
        ? d
        : new Map([...d].filter(([id]) => id !== annotationId)),
    )

  /** Marks one annotation (the picked one unless named); the pick stays where it is. */
  const mark = (value: TriageMark | null, annotationId = current?.annotationId ?? null) => {
    if (annotationId === null) return
    const draft = drafts.get(annotationId)
    dropDraft(annotationId)
    write(() => ({
      queueId: queue.id,
      annotationId,
      mark: value,
      ...(value !== null && draft !== undefined ? { note: draft.trim() } : {}),
    }))
  }

  /**
   * Leaving the note field: a marked annotation's note is saved on its mark (the mark as the
   * writes before left it); an annotation without a mark keeps it for the mark it gets next.
   */
  const keepNote = (annotationId: number) => {
    const draft = drafts.get(annotationId)
    if (draft === undefined) return
    write(() => {
      const marked = written.current.items
        .flatMap((i) => i.marks)
        .find((m) => m.annotationId === annotationId)
      if (!marked) return null
      dropDraft(annotationId, draft)
      if (draft.trim() === marked.note) return null
      return { queueId: queue.id, annotationId, mark: marked.mark, note: draft.trim() }
    })
  }

  const advance = (step: 1 | -1) => {
    if (!item) return
    const next = Math.max(1, Math.min(queue.items.length + 1, position + step))
    if (step === 1 && item.reviewedAt === null) {
      api.triage
        .reviewed({ queueId: queue.id, position: item.position })
        .then((q) => {
          onChange(q)
          setPosition(next)
        })
        .catch((e: unknown) => showError('Saving the queue', e))
    } else setPosition(next)
  }

  // A worker rated from the queue takes effect from the days being triaged, not from today.
  const commitDays: CommitDay[] = [
    {
      day: queue.from,
      label: queue.from === queue.to ? 'the day being triaged' : 'the first day being triaged',
    },
    ...(story
      ? [{ day: formatDay(story.submission.submittedAt), label: 'this submission’s day' }]
      : []),
  ]

  const rateWorker = () => {
    const workerId = item?.workerId
    if (!workerId) return
    api.review
      .worker({ workerId })
      .then((p) => setRating({ id: p.id, externalId: workerId }))
      .catch((e: unknown) => showError('Reading the worker', e))
  }

  const actions = useLatest({
    mark,
    rate,
    advance,
    rateWorker,
    setPicked,
    onLeave,
    count: filled.length,
  })
  // Before the queue is painted, so a key pressed as soon as an item shows is not lost.
  useLayoutEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTypingTarget(e.target)) {
        // Esc gives the keys back to the queue (the text is kept: feedback saves on leaving).
        if (e.key === 'Escape' && e.target instanceof HTMLElement) e.target.blur()
        return
      }
      // A dialog (rating the worker) has the keys; Enter on a button is that button's.
      if (document.querySelector('.modal-backdrop')) return
      if (undoKey(e) || isPrimaryModifier(e) || e.altKey) return
      if (e.key === 'Enter' && e.target instanceof HTMLButtonElement) return
      const a = actions.current
      const key = e.key
      const rating = ratingForKey(e)
      if (rating !== undefined) {
        e.preventDefault()
        a.rate(rating, e.shiftKey)
      } else if (explainUnkeyedDigit(e)) {
        e.preventDefault()
      } else if (key in MARK_KEYS) {
        e.preventDefault()
        a.mark(MARK_KEYS[key] ?? null)
      } else if (key === 'ArrowDown' || key === 'j') {
        e.preventDefault()
        a.setPicked((p) => Math.min(a.count - 1, p + 1))
      } else if (key === 'ArrowUp' || key === 'k') {
        e.preventDefault()
        a.setPicked((p) => Math.max(0, p - 1))
      } else if (key === 'Enter' || key === 'ArrowRight') {
        e.preventDefault()
        a.advance(1)
      } else if (key === 'ArrowLeft') {
        e.preventDefault()
        a.advance(-1)
      } else if (key === 'r') {
        e.preventDefault()
        a.rateWorker()
      } else if (key === 'f') {
        e.preventDefault()
        feedbackRef.current?.focus()
      } else if (key === 'n') {
        e.preventDefault()
        noteRef.current?.focus()
      } else if (key === 'Escape') {
        e.preventDefault()
        a.onLeave()
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [actions])

  const saveFeedback = (text: string) => {
    if (!item || text === item.feedback) return
    api.triage
      .feedback({ queueId: queue.id, position: item.position, feedback: text })
      .then(onChange)
      .catch((e: unknown) => showError('Saving the feedback', e))
  }

  return (
    <section className="triage-queue" data-testid="triage-queue" aria-label="Triage queue">
      <header className="triage-head">
        <button onClick={onLeave}>
          ← Back to the day <kbd>Esc</kbd>
        </button>
        <strong>
          Queue {queue.from === queue.to ? queue.from : `${queue.from} to ${queue.to}`}
        </strong>
        <span className="note" data-testid="triage-progress">
          {done} of {queue.items.length} reviewed
        </span>
        <progress max={queue.items.length} value={done} />
        <TriageTeam queue={queue} onChange={onChange} />
      </header>
      {!item ? (
        <div className="triage-done" data-testid="triage-done">
          <p>
            {queue.finishedAt !== null
              ? 'Queue finished: every sampled submission is reviewed.'
              : 'End of the queue.'}
          </p>
          <TriageSummary queue={queue} />
          <FeedbackSender queue={queue} />
          <button onClick={() => setPosition(1)}>Back to the first item</button>
        </div>
      ) : (
        <article className="triage-item" data-testid="triage-item" data-position={item.position}>
          <div className="triage-item-head">
            <span>
              Item {item.position} of {queue.items.length}
            </span>
            <span>
              worker <span className="mono">{item.workerId ?? '–'}</span>
            </span>
            {story && <span>{formatDay(story.submission.submittedAt)}</span>}
            {item.reviewedAt !== null && <span className="badge">reviewed</span>}
            {item.claimedBy !== undefined && (
              <span className="badge" data-testid="triage-claimed-by">
                {item.claimedBy}’s
              </span>
            )}
          </div>
          {story ? <StoryText story={story} /> : <p className="note">Loading the story…</p>}
          <ol className="triage-annotations">
            {filled.map((d, i) => (
              <TriageAnnotation
                key={d.dimension}
                cells={d}
                mark={markOf(d.annotationId)}
                current={i === picked}
                onPick={() => setPicked(() => i)}
                onMark={(m) => mark(m, d.annotationId)}
                note={
                  (d.annotationId !== null ? drafts.get(d.annotationId) : undefined) ??
                  markOf(d.annotationId)?.note ??
                  ''
                }
                onNote={(text) => {
                  const id = d.annotationId
                  if (id !== null) setDrafts((m) => new Map(m).set(id, text))
                }}
                onNoteDone={() => d.annotationId !== null && keepNote(d.annotationId)}
                noteRef={noteRef}
              />
            ))}
          </ol>
          <label className="field">
            <span>
              Feedback to the worker <kbd>F</kbd> (queued; sent from the end of the queue)
            </span>
            <textarea
              key={`${queue.id}:${item.position}`}
              ref={feedbackRef}
              rows={2}
              defaultValue={item.feedback}
              data-testid="triage-feedback"
              onBlur={(e) => saveFeedback(e.target.value)}
            />
          </label>
          <div className="triage-nav">
            <button onClick={() => advance(-1)} disabled={position <= 1}>
              ← Previous
            </button>
            <button className="primary" data-testid="triage-next" onClick={() => advance(1)}>
              Next <kbd>Enter</kbd>
            </button>
            <button onClick={rateWorker} disabled={!item.workerId}>
              Rate worker… <kbd>R</kbd>
            </button>
          </div>
        </article>
      )}
      {rating && (
        <RateWorkerDialog worker={rating} days={commitDays} onClose={() => setRating(null)} />
      )}
    </section>
  )
}
