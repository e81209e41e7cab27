import { indexSearchBacklog, searchBacklogSize } from '../db/queries/search'
import type { Session } from '../session'
import { plural } from '../../shared/text'

const CHUNK = 5_000

/**
 * Finishes text indexing left over from an interrupted import, on the session's connection in
 * small steps, yielding between them so the window keeps answering.
 */
export function resumeSearchIndexing(session: Session): void {
  const { db } = session.project()
  const total = searchBacklogSize(db)
  if (total === 0) return
  session.jobs.start({
    kind: 'index',
    title: 'Indexing text for search',
    unit: 'annotations',
    run: async (context) => {
      let done = 0
      while (!context.signal.aborted) {
        const indexed = indexSearchBacklog(db, CHUNK)
        if (indexed === 0) break
        done += indexed
        context.report({ done, total })
        await new Promise((resolve) => setImmediate(resolve))
      }
      return { indexed: done }
    },
    summary: ({ indexed }) => `Indexed ${plural(indexed, 'annotation')}`,
  })
}
