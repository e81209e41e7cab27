import { dayStart } from '../../shared/filter'
import type { Db } from '../db/connection'
import {
  type AnnotationGroup,
  type GroupKeys,
  addGroupMoves,
  addRuleMoves,
  addRuleNotes,
  annotationGroups,
  beginMoves,
} from '../db/queries/policies'
import { matchingAnnotationIds } from '../db/queries/review/query'
import type { ResolvedRule } from './evaluation'
import { PolicyError } from './sandbox'

/**
 * Which annotations each rule moves (the first rule that selects an annotation takes it), in one
 * pass over the annotations whatever the number of rules: the annotations are grouped by what
 * the rules ask about (worker, rating, dimension, day), each group gets its first matching rule
 * here, and the groups that move are then read back through the annotations' indexes. A rule
 * with a review-grid filter is a query of its own. The time limit covers all of it.
 */

const DAY = 86_400
/** How many groups are tested between two looks at the clock. */
const CLOCK_EVERY = 1024

/** A rule without a filter, as a test of a group's keys. */
interface Test {
  rule: number
  to: number
  workers?: ReadonlySet<number>
  ratings?: ReadonlySet<number | null>
  dimensions?: ReadonlySet<number>
  /** Epoch seconds: from (inclusive) and until (exclusive). */
  from?: number
  until?: number
}

function testOf(r: ResolvedRule, rule: number): Test | null {
  const w = r.rule.where
  const test: Test = { rule, to: r.rule.to }
  if (r.workerIds !== undefined) test.workers = new Set(r.workerIds)
  if (w.ratings !== undefined) test.ratings = new Set(w.ratings)
  if (w.dimensions !== undefined) test.dimensions = new Set(w.dimensions)
  if (w.submitted?.from !== undefined) test.from = dayStart(w.submitted.from)
  if (w.submitted?.to !== undefined) test.until = dayStart(w.submitted.to) + DAY
  const sets = [test.workers, test.ratings, test.dimensions]
  // A rule asking for an empty list, or an empty range of days, selects nothing.
  if (sets.some((set) => set?.size === 0)) return null
  if (test.from !== undefined && test.until !== undefined && test.from >= test.until) return null
  return test
}

function matches(t: Test, [worker, rating, dimension, day]: AnnotationGroup): boolean {
  return (
    (t.workers === undefined || (worker !== null && t.workers.has(worker))) &&
    (t.ratings === undefined || t.ratings.has(rating)) &&
    (t.dimensions === undefined || (dimension !== null && t.dimensions.has(dimension))) &&
    (t.from === undefined || (day !== null && day >= t.from)) &&
    (t.until === undefined || (day !== null && day < t.until))
  )
}

function unconstrained(t: Test): boolean {
  return (
    t.workers === undefined &&
    t.ratings === undefined &&
    t.dimensions === undefined &&
    t.from === undefined &&
    t.until === undefined
  )
}

/**
 * The first rule each group matches. Rules naming workers are looked up by the group's worker;
 * the first of the others depends on the rest of the group's keys alone and is kept per key.
 */
function firstRules(
  tests: readonly Test[],
  groups: readonly AnnotationGroup[],
  clock: () => void,
): { group: AnnotationGroup; rule: number; to: number }[] {
  const byWorker = new Map<number, Test[]>()
  const others: Test[] = []
  for (const t of tests) {
    if (t.workers === undefined) others.push(t)
    else {
      for (const w of t.workers) {
        const list = byWorker.get(w)
        if (list) list.push(t)
        else byWorker.set(w, [t])
      }
    }
  }
  const otherFirst = new Map<string, Test | null>()
  const out: { group: AnnotationGroup; rule: number; to: number }[] = []
  groups.forEach((group, i) => {
    if (i % CLOCK_EVERY === 0) clock()
    const [worker, rating, dimension, day] = group
    const key = `${rating}|${dimension}|${day}`
    let other = otherFirst.get(key)
    if (other === undefined) {
      other = others.find((t) => matches(t, group)) ?? null
      otherFirst.set(key, other)
    }
    let first = other
    for (const t of (worker === null ? undefined : byWorker.get(worker)) ?? []) {
      if (first !== null && t.rule > first.rule) break
      if (matches(t, group)) {
        first = t
        break
      }
    }
    if (first) out.push({ group, rule: first.rule, to: first.to })
  })
  return out
}

/** The key every rule asks about, with the values they ask for: the groups read only those. */
function sharedKey(
  tests: readonly Test[],
): { key: 'worker' | 'rating' | 'dimension'; values: (number | null)[] } | undefined {
  const lists = {
    rating: tests.map((t) => t.ratings),
    worker: tests.map((t) => t.workers),
    dimension: tests.map((t) => t.dimensions),
  }
  for (const key of ['rating', 'worker', 'dimension'] as const) {
    const sets = lists[key]
    if (sets.every((set) => set !== undefined)) {
      return { key, values: [...new Set(sets.flatMap((set) => [...(set ?? [])]))] }
    }
  }
  return undefined
}

/**
 * Fills the moves of every rule, in order, within the time limit (the moves are then counted
 * and written by the caller). Throws `policy-timeout` once the limit has passed.
 */
export function selectMoves(
  db: Db,
  rules: readonly ResolvedRule[],
  limit: { file: string; timeMs: number },
): void {
  const deadline = Date.now() + limit.timeMs
  const clock = (): void => {
    if (Date.now() >= deadline) {
      throw new PolicyError(
        'policy-timeout',
        `Selecting the annotations the policy's ${rules.length} rules move took longer than its time limit (${limit.timeMs / 1000} s) and was stopped.`,
        { file: limit.file },
      )
    }
  }
  beginMoves(db)
  addRuleNotes(
    db,
    rules.map((r) => r.note),
  )
  // A rule that asks about nothing takes whatever is left: no rule after it selects anything.
  const tests: Test[] = []
  const filtered: number[] = []
  for (const [i, r] of rules.entries()) {
    if (r.rule.where.filter !== undefined) {
      filtered.push(i)
      continue
    }
    const test = testOf(r, i)
    if (test === null) continue
    tests.push(test)
    if (unconstrained(test)) break
  }
  if (tests.length > 0) {
    const keys: GroupKeys = {
      worker: tests.some((t) => t.workers !== undefined),
      rating: tests.some((t) => t.ratings !== undefined),
      dimension: tests.some((t) => t.dimensions !== undefined),
      day: tests.some((t) => t.from !== undefined || t.until !== undefined),
    }
    const groups = annotationGroups(db, keys, sharedKey(tests))
    clock()
    const taken = firstRules(tests, groups, clock)
    clock()
    if (taken.length > 0) addGroupMoves(db, keys, taken)
  }
  for (const i of filtered) {
    clock()
    const r = rules[i]
    if (!r) continue
    const w = r.rule.where
    addRuleMoves(db, i, r.rule.to, {
      ...(r.workerIds !== undefined ? { workerIds: r.workerIds } : {}),
      ...(w.ratings !== undefined ? { ratings: w.ratings } : {}),
      ...(w.dimensions !== undefined ? { dimensions: w.dimensions } : {}),
      ...(w.submitted?.from !== undefined ? { from: w.submitted.from } : {}),
      ...(w.submitted?.to !== undefined ? { to: w.submitted.to } : {}),
      ...(w.filter !== undefined ? { matching: matchingAnnotationIds(db, w.filter) } : {}),
    })
  }
  clock()
}
