import type { Collector, Condition, Constraint, Group } from './spec'
import type { SpanValue } from './spans'

/** A collector's value as CROWDAQ records it (see FORMATS.md §5.3). */
type CollectorValue =
  | string
  | string[]
  | SpanValue
  | SpanValue[]
  | { value: string; granularity: string }
  | unknown[]
  | null
  | undefined

export type GroupValues = Record<string, CollectorValue>

/** The collector ids a condition refers to. */
export function conditionTargets(c: Condition): string[] {
  switch (c.op) {
    case 'eq':
      return [c.id]
    case 'not':
      return conditionTargets(c.arg)
    default:
      return c.args.flatMap(conditionTargets)
  }
}

/**
 * Which collectors of a group are displayed for these values. A list of conditions is ANDed;
 * `eq` is strict string equality and holds only while the collector it names is displayed, so
 * hiding one collector can hide those that depend on it. A cycle hides every collector on it.
 */
export function displayedCollectors(group: Group, values: GroupValues): Set<string> {
  const byId = new Map(group.annotations.map((a) => [a.id, a]))
  const state = new Map<string, 'visiting' | boolean>()
  const shown = (id: string): boolean => {
    const known = state.get(id)
    if (known === 'visiting') return false
    if (known !== undefined) return known
    const collector = byId.get(id)
    if (!collector) return false
    state.set(id, 'visiting')
    const result = (collector.conditions ?? []).every((c) => holds(c))
    state.set(id, result)
    return result
  }
  const holds = (c: Condition): boolean => {
    switch (c.op) {
      case 'eq':
        return shown(c.id) && values[c.id] === c.value
      case 'not':
        return !holds(c.arg)
      case 'and':
        return c.args.every(holds)
      case 'or':
        return c.args.some(holds)
    }
  }
  return new Set(group.annotations.filter((a) => shown(a.id)).map((a) => a.id))
}

/** The values of displayed collectors only: CROWDAQ's `filteredResult` for one group entry. */
export function filterValues(group: Group, values: GroupValues): GroupValues {
  const shown = displayedCollectors(group, values)
  return Object.fromEntries(Object.entries(values).filter(([id]) => shown.has(id)))
}

function textsOf(value: CollectorValue): string[] {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.flatMap((v) => textsOf(v as CollectorValue))
  if (value && typeof value === 'object' && 'surface' in value) return [value.surface]
  return []
}

function isEmpty(value: CollectorValue): boolean {
  if (value === null || value === undefined || value === '') return true
  if (Array.isArray(value)) return value.length === 0
  if (typeof value === 'object' && 'start' in value) return value.start < 0
  return false
}

/** What is wrong with one displayed collector's value: regex constraints, min/max, required. */
function collectorProblems(collector: Collector, value: CollectorValue): string[] {
  const problems: string[] = []
  if (isEmpty(value)) {
    if (!collector.optional) problems.push('required')
    return problems
  }
  for (const c of collector.constraints ?? []) {
    const re = compileConstraint(c)
    if (!re) continue
    for (const text of textsOf(value)) {
      if (!re.test(text)) problems.push(c.description ?? `“${text}” does not match ${c.regex}`)
    }
  }
  if ('repeated' in collector && collector.repeated && Array.isArray(value)) {
    if (collector.min !== undefined && value.length < collector.min) {
      problems.push(`at least ${collector.min} needed, ${value.length} given`)
    }
    if (collector.max !== undefined && value.length > collector.max) {
      problems.push(`at most ${collector.max} allowed, ${value.length} given`)
    }
  }
  return problems
}

export function compileConstraint(c: Constraint): RegExp | null {
  try {
    return new RegExp(c.regex, 'u')
  } catch {
    return null
  }
}

/** Problems of every displayed collector of a group, by collector id (none: an empty object). */
export function groupProblems(group: Group, values: GroupValues): Record<string, string[]> {
  const shown = displayedCollectors(group, values)
  const out: Record<string, string[]> = {}
  for (const collector of group.annotations) {
    if (!shown.has(collector.id)) continue
    const problems = collectorProblems(collector, values[collector.id])
    if (problems.length > 0) out[collector.id] = problems
  }
  return out
}
