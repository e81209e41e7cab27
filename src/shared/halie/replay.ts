import type { DeltaOp, LogEvent } from './logEvents'
import { countAtMost } from '../lists'

/** Who wrote a character: `P` the initial document, `U` the user, `A` the model or the system. */
export type Author = 'P' | 'U' | 'A'

/** The document at one moment; `provenance` has one author letter per character of `text`. */
export interface DocumentState {
  text: string
  provenance: string
}

const EMPTY: DocumentState = { text: '', provenance: '' }

/** Applies one Quill delta: retain n skips, insert puts text in, delete n takes text out. */
export function applyDelta(
  state: DocumentState,
  ops: readonly DeltaOp[],
  author: Author,
): DocumentState {
  let { text, provenance } = state
  let at = 0
  for (const op of ops) {
    if ('retain' in op) {
      at = Math.min(text.length, at + op.retain)
    } else if ('delete' in op) {
      // A delete past the end (the stray one before system-initialize) removes what is there.
      const end = Math.min(text.length, at + op.delete)
      text = text.slice(0, at) + text.slice(end)
      provenance = provenance.slice(0, at) + provenance.slice(end)
    } else if (typeof op.insert === 'string') {
      text = text.slice(0, at) + op.insert + text.slice(at)
      provenance = provenance.slice(0, at) + author.repeat(op.insert.length) + provenance.slice(at)
      at += op.insert.length
    }
    // Non-string inserts (embeds) are skipped, as the format says.
  }
  return { text, provenance }
}

/** What one event does to the document. */
export function applyEvent(state: DocumentState, event: LogEvent): DocumentState {
  if (event.name === 'system-initialize') {
    const text = event.doc ?? ''
    return { text, provenance: 'P'.repeat(text.length) }
  }
  if ((event.name === 'text-insert' || event.name === 'text-delete') && Array.isArray(event.delta))
    return applyDelta(state, event.delta, event.source === 'api' ? 'A' : 'U')
  return state
}

/** Every event of a whole log applied in order: the log's final document. */
export function rebuild(events: readonly LogEvent[]): DocumentState {
  return events.reduce(applyEvent, EMPTY)
}

/** Events between kept documents: a seek applies at most this many. */
export const CHECKPOINT_EVERY = 64

/**
 * A log ready to seek: the document is kept every `CHECKPOINT_EVERY` events, so the document at
 * any moment is a kept one plus fewer than that many events, never a replay from the start.
 */
export class Replay {
  /** Each event's time in ms after the first event; a clock that steps back does not reorder. */
  readonly times: readonly number[]
  readonly duration: number
  private readonly checkpoints: DocumentState[] = []

  constructor(readonly events: readonly LogEvent[]) {
    const first = events[0]?.timestamp ?? 0
    let latest = 0
    this.times = events.map((e) => (latest = Math.max(latest, e.timestamp - first)))
    this.duration = latest
    let state = EMPTY
    events.forEach((event, i) => {
      if (i % CHECKPOINT_EVERY === 0) this.checkpoints.push(state)
      state = applyEvent(state, event)
    })
  }

  /** How many events have happened at `ms` after the first one (those at or before it). */
  countAt(ms: number): number {
    return countAtMost(this.times, ms)
  }

  /** The document once the first `count` events are applied. */
  afterEvents(count: number): DocumentState {
    const n = Math.max(0, Math.min(count, this.events.length))
    const index = Math.floor(n / CHECKPOINT_EVERY)
    let state = this.checkpoints[index] ?? EMPTY
    for (let i = index * CHECKPOINT_EVERY; i < n; i++)
      state = applyEvent(state, this.events[i] as LogEvent)
    return state
  }

  /** The document at `ms` after the first event: every event at or before it, in log order. */
  at(ms: number): DocumentState {
    return this.afterEvents(this.countAt(ms))
  }
}

/** The suggestions on screen after the first `count` events, and which one was taken. */
export interface ShownSuggestions {
  /** The event that showed them. */
  seq: number
  options: string[]
  /** The option taken (metaphor's `suggestion-select`), or null. */
  taken: number | null
}

const SHOWING = new Set(['suggestion-shown', 'suggestion-open', 'suggestion-reopen', 'summary-add'])
/** A new request or the next question takes the last offer off the screen. */
const ENDING = new Set(['button-next', 'suggestion-get', 'button-generate'])

/** The offer on screen after one more event. */
function nextOffer(shown: ShownSuggestions | null, e: LogEvent): ShownSuggestions | null {
  if (SHOWING.has(e.name)) {
    const options =
      e.suggestions.length > 0
        ? e.suggestions.map((s) => s.trimmed || s.original)
        : typeof e.delta === 'string'
          ? [e.delta]
          : []
    return options.length > 0 ? { seq: e.seq, options, taken: null } : shown
  }
  if (e.name === 'suggestion-select' && shown !== null)
    return { seq: shown.seq, options: shown.options, taken: e.suggestionIndex }
  // A closed offer stays on screen only when one of its options was taken.
  if (ENDING.has(e.name) || (e.name === 'suggestion-close' && shown?.taken === null)) return null
  return shown
}

/**
 * What the model offered last before `count` events: a question's answer (`suggestion-shown`),
 * a metaphor's options (`suggestion-open`), a summary (`summary-add`); and the one selected.
 */
export function suggestionsAt(events: readonly LogEvent[], count: number): ShownSuggestions | null {
  let shown: ShownSuggestions | null = null
  for (let i = 0; i < Math.min(count, events.length); i++)
    shown = nextOffer(shown, events[i] as LogEvent)
  return shown
}

/** A mark of the suggestion timeline: where the model's offer appeared, and whether one was taken. */
export interface SuggestionMark {
  /** The event that showed it. */
  seq: number
  /** The option taken, or null. */
  taken: number | null
}

/**
 * The offer on screen after every number of events (index `count`, 0…events), worked out once so
 * a frame of playback reads it instead of scanning the log, and the timeline's marks.
 */
export function offerTimeline(events: readonly LogEvent[]): {
  states: (ShownSuggestions | null)[]
  marks: SuggestionMark[]
} {
  const states: (ShownSuggestions | null)[] = [null]
  const marks = new Map<number, SuggestionMark>()
  let shown: ShownSuggestions | null = null
  for (const e of events) {
    shown = nextOffer(shown, e)
    states.push(shown)
    if (shown) marks.set(shown.seq, { seq: shown.seq, taken: shown.taken })
  }
  return { states, marks: [...marks.values()] }
}

/**
 * The document at a moving playhead: from the last frame's document, only the events since are
 * applied when the playhead moved forward by fewer than a checkpoint's worth; otherwise from the
 * kept document before it (a seek).
 */
export class Playback {
  private count = 0
  private state: DocumentState = EMPTY

  constructor(private readonly replay: Replay) {}

  documentAfter(count: number): DocumentState {
    const events = this.replay.events
    const n = Math.max(0, Math.min(count, events.length))
    if (n === this.count) return this.state
    if (n > this.count && n - this.count < CHECKPOINT_EVERY) {
      for (let i = this.count; i < n; i++)
        this.state = applyEvent(this.state, events[i] as LogEvent)
    } else {
      this.state = this.replay.afterEvents(n)
    }
    this.count = n
    return this.state
  }
}

/**
 * The document in lines (each with its line break), so a frame redraws only the lines that
 * changed: typing touches one line, and the others keep their drawn spans.
 */
export function documentLines(
  text: string,
  provenance: string,
): { text: string; provenance: string }[] {
  const lines: { text: string; provenance: string }[] = []
  let start = 0
  while (start < text.length) {
    const end = text.indexOf('\n', start)
    const stop = end < 0 ? text.length : end + 1
    lines.push({ text: text.slice(start, stop), provenance: provenance.slice(start, stop) })
    start = stop
  }
  return lines
}
