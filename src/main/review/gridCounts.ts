/**
 * Exact totals of the grid's filters, rows first (decisions.md, "Rows first, totals after"):
 * filters on the summary's columns are summed at once; text, sentence and story filters are
 * counted on the count thread, and a newer count of the same asker (the grid, a dialog) cancels
 * the one running (the thread's statement checks a shared generation every few thousand rows).
 * Without the built thread (tests, benchmarks) they are counted here.
 */
import type { Worker } from 'node:worker_threads'
import type { AnnotationFilter } from '../../shared/filter'
import { type Db, getDefaultNativeBinding } from '../db/connection'
import { dataVersion } from '../db/dataVersion'
import {
  constraintsOf,
  countResolved,
  knownTotal,
  liveCountStatement,
  rememberTotal,
} from '../db/queries/review/count'
import { startThread, threadScript } from '../jobs/threadScript'
import type { CountAnswer, CountRequest, CountWorkerData } from './count-worker'

/** Where grid counts run: `auto` on the thread when the app is built; `thread` always (tests). */
export const countThread: { mode: 'auto' | 'thread' } = { mode: 'auto' }

/**
 * Who asks for a total: each has its own slot of the shared generation, so a dialog's count never
 * cancels the grid's, nor the grid's a dialog's.
 */
export type CountAsker = 'grid' | 'dialog'
const SLOTS: Record<CountAsker, number> = { grid: 0, dialog: 1 }

interface Counter {
  worker: Worker
  /** One generation per asker; generations are unique across askers. */
  wanted: Int32Array
  generation: number
  next: number
  waiting: Map<number, (answer: CountAnswer) => void>
  /** Counts sent to the thread and not yet answered, per asker. */
  unfinished: Record<CountAsker, number>
}

const counters = new WeakMap<Db, Counter>()

function counterOf(db: Db): Counter | null {
  const known = counters.get(db)
  if (known) return known
  if (db.memory || db.readonly) return null
  const script = threadScript(import.meta.url, 'count-worker', {
    sources: countThread.mode === 'thread',
  })
  if (!script) return null
  const generation = new SharedArrayBuffer(4 * Object.keys(SLOTS).length)
  const data: CountWorkerData = {
    dbPath: db.name,
    nativeBinding: getDefaultNativeBinding() ?? null,
    generation,
  }
  const worker = startThread(script, { workerData: data })
  worker.unref()
  const counter: Counter = {
    worker,
    wanted: new Int32Array(generation),
    generation: 0,
    next: 0,
    waiting: new Map(),
    unfinished: { grid: 0, dialog: 0 },
  }
  const fail = (message: string) => {
    counters.delete(db)
    for (const [id, settle] of counter.waiting) settle({ id, error: message })
    counter.waiting.clear()
  }
  worker.on('message', (answer: CountAnswer) => {
    const settle = counter.waiting.get(answer.id)
    counter.waiting.delete(answer.id)
    settle?.(answer)
  })
  worker.on('error', (e) => fail(e.message))
  worker.on('exit', () => fail('the count thread stopped'))
  counters.set(db, counter)
  return counter
}

/** Stops the count thread of `db` (the project closes). */
export function stopGridCounts(db: Db): void {
  const counter = counters.get(db)
  counters.delete(db)
  if (counter) void counter.worker.terminate()
}

/**
 * The exact total of `filter` for the grid; null when a newer grid count replaced this one
 * before it finished (its answer is no longer wanted).
 */
export function gridCount(db: Db, filter: AnnotationFilter): Promise<number | null> {
  return countFor(db, filter, 'grid')
}

/**
 * The exact total of `filter` for `asker`, counted on the count thread unless the summary or the
 * remembered totals answer at once; null when a newer count of the same asker, or `cancelCount`,
 * replaced it before it finished.
 */
export async function countFor(
  db: Db,
  filter: AnnotationFilter,
  asker: CountAsker,
): Promise<number | null> {
  const known = knownTotal(db, filter)
  if (known !== undefined) return known
  const c = constraintsOf(db, filter)
  const counter = counterOf(db)
  const generation = counter ? ++counter.generation : 0
  if (counter) Atomics.store(counter.wanted, SLOTS[asker], generation)
  const statement = liveCountStatement(db, c, generation)
  if (!counter || !statement) return countResolved(db, filter, c)
  const version = dataVersion(db)
  const id = ++counter.next
  counter.unfinished[asker]++
  const answer = await new Promise<CountAnswer>((resolve) => {
    counter.waiting.set(id, (a) => {
      counter.unfinished[asker]--
      resolve(a)
    })
    const request: CountRequest = {
      id,
      generation,
      text: statement.text,
      values: [...statement.values],
    }
    counter.worker.postMessage(request)
  })
  if ('cancelled' in answer) return null
  if ('error' in answer) throw new Error(answer.error)
  // Counted on the thread's snapshot: remembered only if nothing was written meanwhile.
  if (db.open && dataVersion(db) === version) rememberTotal(db, filter, answer.total)
  return answer.total
}

/**
 * Cancels the count `asker` waits for (its dialog closed): it answers null. True when there was
 * one unfinished.
 */
export function cancelCount(db: Db, asker: CountAsker): boolean {
  const counter = counters.get(db)
  if (!counter) return false
  // A generation no count has: the running one stops at its next check.
  Atomics.store(counter.wanted, SLOTS[asker], ++counter.generation)
  return counter.unfinished[asker] > 0
}
