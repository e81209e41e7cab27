import type { BulkTable } from '../db/server/bulkTable'
import type { EntryRow } from '../db/queries/changes/entries'
import type { Db } from '../db/types'

/**
 * A table of a collection that a team shares: its columns as COPY sends them (a `uid` column
 * is the change set that brought the row, by its global id), the key the server's table takes,
 * and how an import's rows are found in it: by its own change set column, or by its parent row
 * (`owner`). `worker` names a column whose workers travel with the row.
 */
export interface SharedTable extends BulkTable {
  key: readonly string[]
  /**
   * The natural keys the project's own table holds unique beside its key (a question's external
   * id, an answer's question and text): the server holds them too (its migration 5), so two
   * imports of one thing cannot both be placed.
   */
  unique?: readonly (readonly string[])[]
  owner?: { column: string; table: string }
  worker?: string
  /**
   * A column counting the rows of another table that name this row (`by`): worked out again,
   * not copied, for the rows under a parent an import grew, so two leads adding to it both count.
   */
  counts?: { column: string; table: string; by: string }
}

/**
 * What a collection shares with a team (declared in `collections/<kind>/team.ts`): its bulk
 * tables, parents first, which a publish sends and a join fetches by COPY; the source formats
 * whose imports made after publishing travel (their rows take ids from the replica's band); how
 * its change entries name a row every replica holds, when the local row id would not; and the
 * codecs of its own kinds of change set (ProtoQA's clusterings).
 */
export interface CollectionTeam {
  tables: readonly SharedTable[]
  importFormats: readonly string[]
  entryKeys?: EntryKeys
  codecs?: Readonly<Record<string, CollectionCodec>>
  /** What an import changed in rows an earlier change set brought, carried in its envelope. */
  earlier?: EarlierRows
}

/**
 * An import's changes to rows an earlier change set brought (their rows on the server keep the
 * state they arrived with): `encode` reads what the import itself set, kept when it was made,
 * named as every replica names those rows, or null when it set none; `apply` writes them into
 * the change set opened for it on another replica (a pull, or a join replaying the log, in the
 * log's order); `reapply` writes this replica's own again after a pull wrote others' (its place
 * is later). `workers` is a subquery of the workers they name, which go to the server with the
 * push. `name` keys them in the envelope.
 */
export interface EarlierRows {
  name: string
  encode(db: Db, changeSetId: number): unknown
  apply(db: Db, changeSetId: number, changes: never): void
  reapply(db: Db, changeSetId: number): void
  workers(changeSetId: number): string
}

/** A change set kind's codec (team/codecs.ts): its payload read here, written on another replica. */
export interface CollectionCodec {
  encode(db: Db, changeSetId: number): unknown
  apply(db: Db, change: { id: number; at: number; reverts: number | null }, payload: never): void
}

/** Turns an entry's key between a local row id and a name every replica shares. */
export interface EntryKeys {
  subject: EntryRow['subject']
  toShared(db: Db, key: unknown): unknown
  toLocal(db: Db, key: unknown): unknown
}

type Column = [string, BulkTable['columns'][number]['type']]

/** A shared table in a line: name, key and columns (an `id` key unless told). */
export function sharedTable(
  name: string,
  columns: readonly Column[],
  more: {
    key?: readonly string[]
    unique?: SharedTable['unique']
    owner?: SharedTable['owner']
    worker?: string
    counts?: SharedTable['counts']
  } = {},
): SharedTable {
  return {
    name,
    columns: columns.map(([n, type]) => ({ name: n, type })),
    key: more.key ?? ['id'],
    ...(more.unique ? { unique: more.unique } : {}),
    ...(more.owner ? { owner: more.owner } : {}),
    ...(more.worker ? { worker: more.worker } : {}),
    ...(more.counts ? { counts: more.counts } : {}),
  }
}
