import { crowdaqTeam } from './crowdaq/team'
import { halieTeam } from './halie/team'
import { protoqaTeam } from './protoqa/team'
import type { Db } from '../db/types'
import { UserError } from '../../shared/contract/errors'
import type { CollectionCodec, CollectionTeam, EntryKeys, SharedTable } from './team'

/**
 * What each collection shares with a team, which the server schema, publish, join and sync ask.
 * Apart from `registry.ts`, as `schemas.ts` is, so that the sync thread loads no handlers.
 */
export const collectionTeams: readonly CollectionTeam[] = [protoqaTeam, crowdaqTeam, halieTeam]

/** Every collection's shared tables, parents first. */
export const COLLECTION_TABLES: readonly SharedTable[] = collectionTeams.flatMap((c) => c.tables)

/** Source formats whose imports after publishing travel. */
export const SHARED_IMPORT_FORMATS: ReadonlySet<string> = new Set(
  collectionTeams.flatMap((c) => c.importFormats),
)

/** The codecs of the collections' own kinds of change set, by kind. */
export const collectionCodecs = Object.assign(
  {},
  ...collectionTeams.map((c) => c.codecs ?? {}),
) as Readonly<Record<string, CollectionCodec>>

/** The collection's way of naming an entry subject's rows on every replica, if it has one. */
export function entryKeysOf(subject: string): EntryKeys | undefined {
  return collectionTeams.find((c) => c.entryKeys?.subject === subject)?.entryKeys
}

/** What an import changed in rows earlier change sets brought, by collection; null when nothing. */
export function encodeEarlier(db: Db, changeSetId: number): Record<string, unknown> | null {
  const out: Record<string, unknown> = {}
  for (const c of collectionTeams) {
    const changes = c.earlier?.encode(db, changeSetId) ?? null
    if (changes !== null) out[c.earlier?.name ?? ''] = changes
  }
  return Object.keys(out).length === 0 ? null : out
}

/** Writes another replica's changes to earlier rows (`encodeEarlier`) into change set `changeSetId`. */
export function applyEarlier(
  db: Db,
  changeSetId: number,
  earlier: Readonly<Record<string, unknown>>,
): void {
  for (const [name, changes] of Object.entries(earlier)) {
    const c = collectionTeams.find((t) => t.earlier?.name === name)
    if (!c?.earlier) {
      throw new UserError({
        type: 'conflict',
        code: 'unknown-change-set-kind',
        message: `The team's log holds changes to ${name} rows, which this Winnow cannot apply. Update Winnow.`,
      })
    }
    c.earlier.apply(db, changeSetId, changes as never)
  }
}

/** Writes again what this replica's change set set in earlier rows, after a pull wrote others'. */
export function reapplyEarlier(db: Db, changeSetId: number): void {
  for (const c of collectionTeams) c.earlier?.reapply(db, changeSetId)
}

/** The workers a change set set on earlier rows, as `id IN (…)` clauses on the project's tables. */
export function earlierWorkersOf(changeSetId: number): string[] {
  return collectionTeams.flatMap((c) =>
    c.earlier ? [`id IN (${c.earlier.workers(changeSetId)})`] : [],
  )
}
