import { crowdaqTeam } from './crowdaq/team'
import { halieTeam } from './halie/team'
import { protoqaTeam } from './protoqa/team'
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
