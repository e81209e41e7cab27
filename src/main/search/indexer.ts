import { type Db, withPragmas } from '../db/connection'
import { indexSearchBacklog, searchBacklogSize } from '../db/queries/search'

export interface IndexHooks {
  progress?(done: number, total: number): void
  cancelled?(): boolean
  /** Annotations per transaction. */
  chunk?: number
  /** The page cache while indexing, in MB (as `openProject` takes it); the connection's own again after. */
  cacheMb?: number
}

const CHUNK = 20_000

/**
 * Indexes the text of every annotation in the backlog, a chunk per transaction. The rows are
 * already committed, so a cancel or a kill keeps what was indexed; the rest waits for the next
 * run (opening the project starts one, and a full-text query finishes it first).
 */
export function indexSearchText(db: Db, hooks: IndexHooks = {}): number {
  const { cacheMb } = hooks
  if (cacheMb === undefined) return indexBacklog(db, hooks)
  return withPragmas(db, { cache_size: -cacheMb * 1024 }, () => indexBacklog(db, hooks))
}

function indexBacklog(db: Db, hooks: IndexHooks): number {
  const total = searchBacklogSize(db)
  if (total === 0) return 0
  // At once: the progress bar turns from the import to the indexing as soon as the rows are in.
  hooks.progress?.(0, total)
  let done = 0
  while (done < total) {
    // Stopping here loses nothing: the import is committed and the rest waits in the backlog.
    if (hooks.cancelled?.()) break
    const indexed = indexSearchBacklog(db, hooks.chunk ?? CHUNK)
    if (indexed === 0) break
    done += indexed
    hooks.progress?.(done, total)
  }
  return done
}

/** Before a full-text query: index whatever is still waiting, so results are complete. */
export function ensureSearchIndexed(db: Db): void {
  if (searchBacklogSize(db) > 0) indexSearchText(db)
}
