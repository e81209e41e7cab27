import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type LogEvent, parseLogLine } from '../../src/shared/halie/logEvents'
import {
  CHECKPOINT_EVERY,
  Replay,
  applyDelta,
  rebuild,
  suggestionsAt,
} from '../../src/shared/halie/replay'
import { generateLog, random } from '../helpers/halie'

const SAMPLE = join(__dirname, '../../../shared/data/halie/question/raw_log_sample.jsonl')

const events = (lines: readonly string[]): LogEvent[] => lines.map((l, i) => parseLogLine(l, i))

const line = (e: Record<string, unknown>): string =>
  JSON.stringify({ eventSource: 'user', eventTimestamp: 1000, textDelta: '', currentDoc: '', ...e })

describe('rebuilding a HALIE document from its deltas', () => {
  it.skipIf(!existsSync(SAMPLE))(
    'the sample log: the document at every LM query is the query the model was shown (needs ../shared/data)',
    () => {
      const log = events(readFileSync(SAMPLE, 'utf8').split('\n').filter(Boolean))
      const replay = new Replay(log)
      const shown = log.filter((e) => e.name === 'suggestion-shown')
      expect(shown.length).toBe(5)
      for (const e of shown) {
        const query = /<b>([\s\S]*?)<\/b>/.exec(e.delta as string)?.[1]
        expect(replay.afterEvents(e.seq).text).toBe(`${query}\n`)
      }
      // The stray api delete before system-initialize removes nothing.
      expect(log[0]?.name).toBe('text-delete')
      expect(rebuild(log)).toEqual({
        text: 'Saudi Arabia GDP spent military amount\t\n',
        provenance: `${'U'.repeat(39)}P`,
      })
    },
  )

  it('generated logs (inserts, deletes, retains, embeds, api text, a delete before system-initialize): the whole session equals the editor’s final text', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const log = generateLog(random(seed), { events: 400 })
      const rebuilt = rebuild(events(log.lines))
      expect(rebuilt.text).toBe(log.text)
      expect(rebuilt.provenance).toBe(log.provenance)
      expect(new Set(log.provenance)).toEqual(new Set(['P', 'U', 'A']))
    }
  })

  it('seeking lands on the same document as replaying from the start, at every event of a long log', () => {
    const log = generateLog(random(11), { events: 5 * CHECKPOINT_EVERY + 7 })
    const replay = new Replay(events(log.lines))
    log.after.forEach((expected, i) => {
      const state = replay.afterEvents(i + 1)
      expect(state.text).toBe(expected.text)
      expect(state.provenance).toBe(expected.provenance)
    })
    // By time: at an event's moment it has happened; a moment before it, it has not.
    const k = 200
    const at = log.after[k]?.ms as number
    expect(replay.at(at).text).toBe(log.after[k]?.text)
    expect(replay.at(at - 1).text).toBe(log.after[k - 1]?.text)
    expect(replay.at(1e12).text).toBe(log.text)
    expect(replay.at(0).text).toBe('')
  })

  it('keeps who wrote each character through deletes and re-inserts', () => {
    let doc = { text: 'Hello\n', provenance: 'PPPPPP' }
    doc = applyDelta(doc, [{ retain: 5 }, { insert: ' world' }], 'U')
    doc = applyDelta(doc, [{ retain: 1 }, { delete: 3 }], 'U')
    expect(doc).toEqual({ text: 'Ho world\n', provenance: 'PPUUUUUUP' })
    doc = applyDelta(doc, [{ retain: 1 }, { insert: 'ell' }], 'A')
    expect(doc).toEqual({ text: 'Hello world\n', provenance: 'PAAAPUUUUUUP' })
    doc = applyDelta(doc, [{ retain: 5 }, { delete: 6 }, { insert: '!' }], 'U')
    expect(doc).toEqual({ text: 'Hello!\n', provenance: 'PAAAPUP' })
    // An embed is skipped; retains and deletes past the end stop there.
    doc = applyDelta(doc, [{ insert: { image: 'x' } }, { retain: 99 }, { delete: 3 }], 'U')
    expect(doc).toEqual({ text: 'Hello!\n', provenance: 'PAAAPUP' })
  })

  it('events before system-initialize act on an empty document, which the initial document then replaces', () => {
    const log = events([
      line({ eventName: 'text-delete', eventSource: 'api', textDelta: { ops: [{ delete: 44 }] } }),
      line({ eventName: 'text-insert', textDelta: { ops: [{ insert: 'early' }] } }),
      line({ eventName: 'system-initialize', eventSource: 'api', currentDoc: 'Story:\n' }),
      line({ eventName: 'text-insert', textDelta: { ops: [{ retain: 6 }, { insert: ' x' }] } }),
    ])
    const replay = new Replay(log)
    expect(replay.afterEvents(2)).toEqual({ text: 'early', provenance: 'UUUUU' })
    expect(rebuild(log)).toEqual({ text: 'Story: x\n', provenance: 'PPPPPPUUP' })
  })

  it('shows the model’s offer from when it appeared, and which option was taken', () => {
    const log = events([
      line({ eventName: 'system-initialize', eventSource: 'api', currentDoc: '\n' }),
      line({ eventName: 'suggestion-get' }),
      line({
        eventName: 'suggestion-open',
        eventSource: 'api',
        currentSuggestions: [
          { index: 0, original: ' a', trimmed: 'a', probability: -1, source: 'm' },
          { index: 1, original: ' b', trimmed: 'b', probability: -2, source: 'm' },
        ],
      }),
      line({ eventName: 'suggestion-select', currentSuggestionIndex: 1 }),
      line({ eventName: 'suggestion-close' }),
      line({ eventName: 'suggestion-get' }),
    ])
    expect(suggestionsAt(log, 2)).toBeNull()
    expect(suggestionsAt(log, 3)).toEqual({ seq: 2, options: ['a', 'b'], taken: null })
    expect(suggestionsAt(log, 5)).toEqual({ seq: 2, options: ['a', 'b'], taken: 1 })
    expect(suggestionsAt(log, 6)).toBeNull()
  })
})
