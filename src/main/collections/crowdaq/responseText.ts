import type { Collector, TaskSpec } from '../../../shared/crowdaq/spec'
import { spanLabel } from '../../../shared/crowdaq/spans'
import { isRecord } from '../../../shared/crowdaq/record'

/**
 * A task response as text for the review: each displayed collector's value in words (option keys
 * with their labels, spans with their surface). Workers' text stays text: the page never reads it
 * as HTML.
 */

interface ResponseColumn {
  /** `group.collector`. */
  key: string
  label: string
}

/** The collectors of a task in the order of its spec. */
export function taskColumns(spec: TaskSpec): (ResponseColumn & { collector: Collector })[] {
  return spec.annotation_groups.flatMap((g) =>
    g.annotations.map((c) => ({
      key: `${g.id}.${c.id}`,
      label: `${g.title ?? g.id}: ${c.prompt ?? c.title ?? c.id}`,
      collector: c,
    })),
  )
}

function option(c: Collector, key: unknown): string {
  const k = String(key)
  const label = 'options' in c ? c.options[k] : undefined
  return label === undefined ? k : `${k} ${label}`
}

/** One value of one collector, in words; null when there is none. */
function valueText(c: Collector, v: unknown): string | null {
  if (v === undefined || v === null || v === '') return null
  if (c.type === 'multiple-choice') return option(c, v)
  if (c.type === 'multi-label' && Array.isArray(v)) {
    return v.length === 0 ? null : v.map((k) => option(c, k)).join(', ')
  }
  if (isRecord(v) && typeof v.start === 'number' && typeof v.end === 'number') {
    // CROWDAQ records a span left unset as −1/−1.
    if (v.start < 0) return null
    return spanLabel({
      start: v.start,
      end: v.end,
      surface: typeof v.surface === 'string' ? v.surface : '',
    })
  }
  if (isRecord(v) && typeof v.value === 'string') {
    return typeof v.granularity === 'string' ? `${v.value} (${v.granularity})` : v.value
  }
  if (Array.isArray(v)) {
    const parts = v.map((x) => valueText(c, x)).filter((x): x is string => x !== null)
    return parts.length === 0 ? null : parts.join('; ')
  }
  return typeof v === 'string' ? v : JSON.stringify(v)
}

/**
 * The text of each collector a response filled, by `group.collector`. A repeated group's entries
 * are numbered in order.
 */
export function responseTexts(
  spec: TaskSpec,
  response: Record<string, unknown>,
): Map<string, string> {
  const out = new Map<string, string>()
  for (const g of spec.annotation_groups) {
    const raw = response[g.id]
    const entries = Array.isArray(raw) ? raw : [raw]
    for (const c of g.annotations) {
      const filled = entries.flatMap((e, i) => {
        const t = isRecord(e) ? valueText(c, e[c.id]) : null
        return t === null ? [] : [Array.isArray(raw) ? `${i + 1}) ${t}` : t]
      })
      if (filled.length > 0) out.set(`${g.id}.${c.id}`, filled.join(' '))
    }
  }
  return out
}
