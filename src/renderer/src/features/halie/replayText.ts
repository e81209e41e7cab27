import type { LogEvent } from '../../../../shared/halie/logEvents'

/** Runs of characters by one author, so the document draws as few spans as it can. */
export function authorRuns(text: string, provenance: string): { author: string; text: string }[] {
  const runs: { author: string; text: string }[] = []
  let start = 0
  for (let i = 1; i <= text.length; i++) {
    if (i === text.length || provenance[i] !== provenance[start]) {
      runs.push({ author: provenance[start] ?? 'U', text: text.slice(start, i) })
      start = i
    }
  }
  return runs
}

/** `m:ss.s` from milliseconds. */
export function formatClock(ms: number): string {
  const seconds = ms / 1000
  const m = Math.floor(seconds / 60)
  const s = seconds - m * 60
  return `${m}:${s.toFixed(1).padStart(4, '0')}`
}

/** A short description of what an event did, for the event list (text only). */
export function describeEvent(e: LogEvent): string {
  if (Array.isArray(e.delta)) {
    return e.delta
      .map((op) =>
        'retain' in op
          ? `retain ${op.retain}`
          : 'delete' in op
            ? `delete ${op.delete}`
            : typeof op.insert === 'string'
              ? `insert ${JSON.stringify(op.insert)}`
              : 'insert (embed)',
      )
      .join(', ')
  }
  if (typeof e.delta === 'string') return e.delta.length > 80 ? `${e.delta.slice(0, 80)}…` : e.delta
  if (e.suggestions.length > 0) return `${e.suggestions.length} suggestions`
  return ''
}
