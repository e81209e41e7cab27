import { describe, expect, it } from 'vitest'
import { type LogEvent, parseLogLine } from '../../src/shared/halie/logEvents'
import {
  CHECKPOINT_EVERY,
  Playback,
  Replay,
  documentLines,
  offerTimeline,
  suggestionsAt,
} from '../../src/shared/halie/replay'
import { generateLog, random } from '../helpers/halie'

const eventsOf = (seed: number, n: number): LogEvent[] =>
  generateLog(random(seed), { events: n, task: 'metaphor' }).lines.map((l, i) => parseLogLine(l, i))

describe('playback, one frame after another', () => {
  it('gives the document the log had after each frame’s events, by deltas or from a checkpoint', () => {
    const events = eventsOf(3, 900)
    const log = generateLog(random(3), { events: 900, task: 'metaphor' })
    const replay = new Replay(events)
    const playback = new Playback(replay)
    const rnd = random(11)
    let count = 0
    for (let frame = 0; frame < 600; frame++) {
      // Mostly small steps forward (playback), now and then a seek back or far ahead.
      const r = rnd()
      count =
        r < 0.8
          ? Math.min(events.length, count + Math.floor(rnd() * 6))
          : r < 0.9
            ? Math.floor(rnd() * events.length)
            : Math.min(events.length, count + CHECKPOINT_EVERY + Math.floor(rnd() * 100))
      const want = count === 0 ? { text: '', provenance: '' } : log.after[count - 1]
      const got = playback.documentAfter(count)
      expect({ text: got.text, provenance: got.provenance }).toEqual({
        text: want?.text,
        provenance: want?.provenance,
      })
    }
  })
})

describe('the suggestion timeline', () => {
  it('holds the offer on screen after every event, as reading the log up to there does', () => {
    const events = eventsOf(5, 700)
    const { states, marks } = offerTimeline(events)
    expect(states).toHaveLength(events.length + 1)
    for (let count = 0; count <= events.length; count++)
      expect(states[count]).toEqual(suggestionsAt(events, count))
    // A mark per offer shown, at the event that showed it; taken where an option was selected.
    const shown = events.filter((e) => e.name === 'suggestion-open').map((e) => e.seq)
    expect(marks.map((m) => m.seq)).toEqual(shown)
    for (const m of marks) {
      const end = events.findIndex(
        (e, i) =>
          i > m.seq && ['suggestion-open', 'suggestion-get', 'suggestion-close'].includes(e.name),
      )
      const selected = events
        .slice(m.seq + 1, end < 0 ? undefined : end)
        .filter((e) => e.name === 'suggestion-select')
      expect(m.taken).toBe(
        selected.length > 0 ? selected[selected.length - 1]?.suggestionIndex : null,
      )
    }
    expect(marks.some((m) => m.taken !== null)).toBe(true)
    expect(marks.some((m) => m.taken === null)).toBe(true)
  })
})

describe('the document in lines', () => {
  it('splits after each line break, keeping every character and its author', () => {
    const lines = documentLines('ab\n\ncd\ne', 'PPPUAAUA')
    expect(lines).toEqual([
      { text: 'ab\n', provenance: 'PPP' },
      { text: '\n', provenance: 'U' },
      { text: 'cd\n', provenance: 'AAU' },
      { text: 'e', provenance: 'A' },
    ])
    expect(documentLines('', '')).toEqual([])
  })
})
