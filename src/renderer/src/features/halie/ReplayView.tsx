import { memo, useEffect, useMemo, useRef, useState } from 'react'
import type { LogEvent } from '../../../../shared/halie/logEvents'
import {
  Playback,
  Replay,
  type SuggestionMark,
  documentLines,
  offerTimeline,
} from '../../../../shared/halie/replay'
import { authorRuns, describeEvent, formatClock } from './replayText'

export const SPEEDS = [1, 2, 4, 8, 16] as const

const AUTHORS: Record<string, string> = { P: 'initial prompt', U: 'user', A: 'model' }

/** One line of the document, each run of one author's characters as text in its colour. */
const DocumentLine = memo(function DocumentLine({
  text,
  provenance,
}: {
  text: string
  provenance: string
}) {
  return (
    <span className="halie-line">
      {authorRuns(text, provenance).map((run, i) => (
        <span key={i} className={`by-${run.author}`} title={AUTHORS[run.author]}>
          {run.text}
        </span>
      ))}
    </span>
  )
})

/** The document; a line whose text and authors are unchanged is not drawn again. */
function DocumentText({ text, provenance }: { text: string; provenance: string }) {
  const lines = useMemo(() => documentLines(text, provenance), [text, provenance])
  return (
    <div className="halie-doc" data-testid="replay-doc">
      {lines.map((line, i) => (
        <DocumentLine key={i} text={line.text} provenance={line.provenance} />
      ))}
    </div>
  )
}

/** The suggestion timeline: a mark where each offer of the model appeared; a click seeks there. */
const SuggestionMarks = memo(function SuggestionMarks({
  marks,
  times,
  duration,
  onSeek,
}: {
  marks: readonly SuggestionMark[]
  times: readonly number[]
  duration: number
  onSeek: (index: number) => void
}) {
  if (marks.length === 0) return null
  return (
    <div className="halie-marks" data-testid="replay-marks" aria-label="The model's suggestions">
      {marks.map((m) => {
        const at = times[m.seq] ?? 0
        return (
          <button
            key={m.seq}
            className={`halie-mark ${m.taken === null ? '' : 'is-taken'}`}
            data-testid="replay-mark"
            data-seq={m.seq}
            style={{ left: `${duration > 0 ? (at / duration) * 100 : 0}%` }}
            title={`${formatClock(at)}: the model's suggestion${m.taken === null ? '' : `, option ${m.taken + 1} taken`}`}
            onClick={() => onSeek(m.seq)}
          />
        )
      })}
    </div>
  )
})

/** Every event of the log; drawn once, the current one marked from outside (it moves each frame). */
const EventList = memo(function EventList({
  events,
  times,
  onSeek,
  list,
}: {
  events: readonly LogEvent[]
  times: readonly number[]
  onSeek: (index: number) => void
  list: React.RefObject<HTMLOListElement | null>
}) {
  return (
    <ol className="halie-events" data-testid="replay-events" ref={list}>
      {events.map((e, i) => (
        <li key={i} data-seq={i} className={`src-${e.source}`} onClick={() => onSeek(i)}>
          <span className="halie-event-time">{formatClock(times[i] ?? 0)}</span>{' '}
          <span className="halie-event-name">{e.name}</span>{' '}
          <span className="halie-event-what">{describeEvent(e)}</span>
        </li>
      ))}
    </ol>
  )
})

/**
 * A session's raw log played back: the document as it stood at the playhead with every character
 * coloured by its author, the model's offers when they appeared, and the event list in step.
 * Keys: space plays or pauses, ←/→ step one event, [ and ] change the speed (1×–16×).
 */
export function ReplayView({ events }: { events: readonly LogEvent[] }) {
  const replay = useMemo(() => new Replay(events), [events])
  const playback = useMemo(() => new Playback(replay), [replay])
  const offers = useMemo(() => offerTimeline(events), [events])
  const [ms, setMs] = useState(0)
  const [playing, setPlaying] = useState(false)
  const [speed, setSpeed] = useState<(typeof SPEEDS)[number]>(1)
  const list = useRef<HTMLOListElement>(null)
  const count = replay.countAt(ms)
  // Each frame applies only the events since the last one (a seek starts from a kept document).
  const doc = useMemo(() => playback.documentAfter(count), [playback, count])
  const offer = offers.states[count] ?? null

  // Playback: the playhead advances with the clock times the speed, one step per frame.
  useEffect(() => {
    if (!playing) return
    let last = performance.now()
    let frame = requestAnimationFrame(function step(now) {
      const elapsed = (now - last) * speed
      last = now
      setMs((at) => {
        const next = Math.min(replay.duration, at + elapsed)
        if (next >= replay.duration) setPlaying(false)
        return next
      })
      frame = requestAnimationFrame(step)
    })
    return () => cancelAnimationFrame(frame)
  }, [playing, speed, replay])

  // The event list follows the playhead: the last event applied is marked and kept in view.
  useEffect(() => {
    const ol = list.current
    if (!ol) return
    ol.querySelector('.is-current')?.classList.remove('is-current')
    const current = ol.children[count - 1]
    if (current) {
      current.classList.add('is-current')
      current.scrollIntoView({ block: 'nearest' })
    }
  }, [count])

  const seekToEvent = (index: number): void => {
    setMs(replay.times[Math.max(0, Math.min(index, events.length - 1))] ?? 0)
  }
  const step = (by: 1 | -1): void => {
    setPlaying(false)
    // The playhead is on the last event applied (count - 1); step to its neighbour.
    const target = count - 1 + by
    if (target < 0) setMs(0)
    else seekToEvent(target)
  }
  const changeSpeed = (by: 1 | -1): void => {
    const i = SPEEDS.indexOf(speed) + by
    setSpeed(SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, i))] ?? 1)
  }

  return (
    <div
      className="halie-replay"
      data-testid="replay"
      tabIndex={0}
      onKeyDown={(e) => {
        if (e.target instanceof HTMLInputElement && e.target.type !== 'range') return
        if (e.key === ' ') setPlaying((p) => !p && ms < replay.duration)
        else if (e.key === 'ArrowRight') step(1)
        else if (e.key === 'ArrowLeft') step(-1)
        else if (e.key === ']') changeSpeed(1)
        else if (e.key === '[') changeSpeed(-1)
        else return
        e.preventDefault()
        e.stopPropagation()
      }}
    >
      <div className="halie-controls">
        <button
          className="small"
          data-testid="replay-play"
          onClick={() => {
            if (!playing && ms >= replay.duration) setMs(0)
            setPlaying((p) => !p)
          }}
        >
          {playing ? 'Pause' : 'Play'}
        </button>
        <select
          aria-label="Speed"
          data-testid="replay-speed"
          value={speed}
          onChange={(e) => setSpeed(Number(e.target.value) as (typeof SPEEDS)[number])}
        >
          {SPEEDS.map((s) => (
            <option key={s} value={s}>
              {s}×
            </option>
          ))}
        </select>
        <span className="halie-timeline-box">
          <SuggestionMarks
            marks={offers.marks}
            times={replay.times}
            duration={replay.duration}
            onSeek={(seq) => {
              setPlaying(false)
              seekToEvent(seq)
            }}
          />
          <input
            type="range"
            className="halie-timeline"
            aria-label="Playhead"
            data-testid="replay-seek"
            min={0}
            max={replay.duration}
            step={1}
            value={Math.round(ms)}
            onChange={(e) => {
              setPlaying(false)
              setMs(Number(e.target.value))
            }}
          />
        </span>
        <span className="halie-clock" data-testid="replay-clock">
          {formatClock(ms)} / {formatClock(replay.duration)}
        </span>
        <span className="note" data-testid="replay-count">
          {count} of {events.length} events
        </span>
        <span className="halie-key">
          <span className="by-P">prompt</span> <span className="by-U">user</span>{' '}
          <span className="by-A">model</span>
        </span>
      </div>
      <div className="halie-replay-body">
        <div className="halie-replay-main">
          <DocumentText text={doc.text} provenance={doc.provenance} />
          {offer && (
            <div className="halie-offer" data-testid="replay-offer">
              <h4>The model offered</h4>
              <ol>
                {offer.options.map((o, i) => (
                  <li key={i} className={offer.taken === i ? 'is-taken' : ''}>
                    {o}
                    {offer.taken === i && <span className="halie-taken"> ← taken</span>}
                  </li>
                ))}
              </ol>
            </div>
          )}
        </div>
        <EventList events={events} times={replay.times} onSeek={seekToEvent} list={list} />
      </div>
    </div>
  )
}
