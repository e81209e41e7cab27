import { UserError } from '../../../shared/contract/errors'
import { ratingKey } from '../../../shared/ratings/key'
import { plural } from '../../../shared/text'
import { type Entry, recordChange } from '../../changes/entries'
import type { Db } from '../../db/connection'
import {
  type HalieRatingKey,
  type SessionRatingBasis,
  blockNames,
  sessionNames,
  sessionRatingBases,
} from './db/ratings'
import { NOW, workerRatingsInForce } from '../../db/queries/ratings/rows'
import { assertOnScale } from '../../ratings/scale'
import type { SessionRow } from '../../../shared/halie/sessions'
import type { UnratedRow } from './db/sessions'
import { latestByWorker, ratingAt } from '../../ratings/timeline'

/**
 * Rating HALIE sessions and event blocks. Each rating is one change set of `halie.rating` entries
 * (History lists it, a revert puts back what it replaced). A block's effective rating is its own,
 * else its session's; a session's is its own, else its worker's dated rating at the session's
 * start (the worker's latest where the start is unknown), as an annotation follows its worker.
 */

export interface HalieRatingOptions {
  value: number | null
  author: string
  note?: string | undefined
}

export interface HalieRatingResult {
  changeSet: number
  rated: number
}

function nothingNamed(word: string, missing: readonly number[]): UserError {
  return new UserError({
    type: 'not-found',
    code: `no-such-halie-${word}`,
    message: `No HALIE ${word} ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ' …' : ''}.`,
  })
}

function checkIds(ids: readonly number[], field: string): void {
  if (ids.length === 0)
    throw new UserError({
      type: 'invalid-argument',
      code: 'nothing-selected',
      message: `Name at least one ${field}.`,
      field,
    })
}

function describe(o: HalieRatingOptions, what: string): string {
  const verb = o.value === null ? 'Cleared the rating of' : `Rated ${ratingKey(o.value)}:`
  return `${verb} ${what}${o.note ? ` — ${o.note}` : ''}`
}

/** Rates HALIE sessions, as one change set. */
export function rateSessions(
  db: Db,
  ids: readonly number[],
  o: HalieRatingOptions,
): HalieRatingResult {
  return rateItems(db, ids, o, {
    noun: 'session',
    field: 'session',
    names: sessionNames,
    key: (id) => ({ session: id }),
    one: (s) => `HALIE ${s.task} session ${s.externalId}`,
    many: 'HALIE session',
  })
}

/** Rates event blocks (rows of a task's `event_blocks.csv`), as one change set. */
export function rateBlocks(
  db: Db,
  ids: readonly number[],
  o: HalieRatingOptions,
): HalieRatingResult {
  return rateItems(db, ids, o, {
    noun: 'event block',
    field: 'block',
    names: blockNames,
    key: (id) => ({ block: id }),
    one: (b) => `HALIE ${b.task} event block (line ${b.line}) of session ${b.session}`,
    many: 'HALIE event block',
  })
}

/** What rating one kind of HALIE item needs: how to find them, key them and name them. */
interface RatedKind<T extends { id: number }> {
  noun: string
  /** The argument that names them, for a refusal. */
  field: 'session' | 'block'
  names(db: Db, ids: readonly number[]): T[]
  key(id: number): HalieRatingKey
  one(item: T): string
  many: string
}

function rateItems<T extends { id: number }>(
  db: Db,
  ids: readonly number[],
  o: HalieRatingOptions,
  kind: RatedKind<T>,
): HalieRatingResult {
  checkIds(ids, kind.field)
  if (o.value !== null) assertOnScale(db, o.value)
  return db
    .transaction((): HalieRatingResult => {
      const found = kind.names(db, ids)
      const known = new Set(found.map((item) => item.id))
      const missing = ids.filter((id) => !known.has(id))
      if (missing.length > 0) throw nothingNamed(kind.noun, missing)
      const first = found[0]
      const what = found.length === 1 && first ? kind.one(first) : plural(found.length, kind.many)
      const entries: Entry[] = found.map((item) => ({
        subject: 'halie.rating',
        key: kind.key(item.id),
        value: o.value,
      }))
      const change = recordChange(
        db,
        {
          kind: found.length > 1 ? 'bulk' : 'manual',
          author: o.author,
          description: describe(o, what),
        },
        entries,
      )
      return { changeSet: change.id, rated: found.length }
    })
    .immediate()
}

export interface EffectiveRating {
  value: number | null
  /** Where it comes from: the session's (or block's) own rating, its worker's, or none. */
  source: 'item' | 'session' | 'worker' | null
}

/**
 * Effective ratings of sessions (all, or these ids), at `asOf` where given: `items` then holds the
 * item ratings of that moment (`halieRatingsAsOf`), else each session's rating in force now.
 */
export function sessionRatings(
  db: Db,
  options: {
    ids?: readonly number[]
    asOf?: number
    items?: ReadonlyMap<string, number | null>
  } = {},
): Map<number, EffectiveRating> {
  const bases = sessionRatingBases(db, options.ids)
  const workers = [...new Set(bases.map((b) => b.workerId).filter((w): w is number => w !== null))]
  const rows = workers.length > 0 ? workerRatingsInForce(db, workers, options.asOf ?? NOW) : []
  const byWorker = new Map<number, typeof rows>()
  for (const row of rows) {
    const list = byWorker.get(row.workerId) ?? []
    list.push(row)
    byWorker.set(row.workerId, list)
  }
  const latest = latestByWorker(rows)
  const out = new Map<number, EffectiveRating>()
  for (const b of bases) out.set(b.id, effectiveOf(b, options.items, byWorker, latest))
  return out
}

function effectiveOf(
  b: SessionRatingBasis,
  items: ReadonlyMap<string, number | null> | undefined,
  byWorker: ReadonlyMap<number, Parameters<typeof ratingAt>[0]>,
  latest: ReadonlyMap<number, number>,
): EffectiveRating {
  const own = items ? (items.get(`session:${b.id}`) ?? null) : b.rating
  if (own !== null) return { value: own, source: 'item' }
  if (b.workerId === null) return { value: null, source: null }
  const value =
    b.startedAt === null
      ? (latest.get(b.workerId) ?? null)
      : ratingAt(byWorker.get(b.workerId) ?? [], Math.floor(b.startedAt / 1000))
  return value === null ? { value: null, source: null } : { value, source: 'worker' }
}

/** A block's effective rating: its own, else its session's. */
export function blockRating(own: number | null, session: EffectiveRating): EffectiveRating {
  if (own !== null) return { value: own, source: 'item' }
  return session.value === null ? session : { value: session.value, source: 'session' }
}

/** Session rows with their effective ratings. */
export function withRatings(db: Db, rows: readonly UnratedRow[]): SessionRow[] {
  const ratings = sessionRatings(db, { ids: rows.map((r) => r.id) })
  return rows.map((r) => {
    const e = ratings.get(r.id)
    return {
      ...r,
      rating: e?.value ?? null,
      ratingSource: e?.source === 'item' ? 'item' : e?.source === 'worker' ? 'worker' : null,
    }
  })
}
