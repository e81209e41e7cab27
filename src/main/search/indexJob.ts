import type { Db } from '../db/connection'
import { indexSearchBacklog, searchBacklogSize } from '../db/queries/search'
import type { JobManager } from '../jobs/manager'
import { plural } from '../../shared/text'

const CHUNK = 5_000

/**
 * Finishes text indexing left over from an interrupted import, on the app's connection `db` in
 * small steps, as a job of `jobs`, yielding between steps so the window keeps answering.
 */
export function resumeSearchIndexing(jobs: JobManager, db: Db): void {
  const total = searchBacklogSize(db)
  if (total === 0) return
  jobs.start({
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
    yields: true,
  })
}
