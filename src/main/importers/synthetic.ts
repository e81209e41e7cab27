import type { Db } from '../db/connection'
import { withIndexesRebuiltAfter } from '../db/queries/bulk'
import { createChangeSet } from '../db/queries/changes/sets'
import { SubmissionWriter, type WriteCounts } from '../db/queries/submissions'
import { CancelledError } from '../jobs/cancel'
import { reconstructImportedRatings } from '../ratings/importTimelines'
import { indexSearchText } from '../search/indexer'
import { generateSubmissions } from '../synth/glucose'
import { plural } from '../../shared/text'

export interface SyntheticOptions {
  submissions: number
  seed: number
  description?: string
}

/** Writes generated GLUCOSE-like submissions in one transaction, as one import change set. */
export function writeSynthetic(
  db: Db,
  options: SyntheticOptions,
  hooks: { progress?(done: number): void; cancelled?(): boolean } = {},
): WriteCounts {
  const counts = db
    .transaction(() => {
      const description =
        options.description ??
        `Synthetic data: ${plural(options.submissions, 'submission')}, seed ${options.seed}`
      const changeSet = createChangeSet(db, { kind: 'import', author: 'synth', description })
      const writer = new SubmissionWriter(db, changeSet.id, null)
      // A large run writes like a large import: secondary indexes rebuilt once at the end.
      withIndexesRebuiltAfter(db, options.submissions * 5, () => {
        let done = 0
        for (const submission of generateSubmissions({
          count: options.submissions,
          seed: options.seed,
        })) {
          writer.write(submission)
          if (++done % 2000 === 0) {
            if (hooks.cancelled?.()) throw new CancelledError()
            hooks.progress?.(done)
          }
        }
        writer.finish()
      })
      // Like an import: the generated ratings become worker timelines.
      reconstructImportedRatings(db, changeSet, 'synth')
      return writer.counts
    })
    .immediate()
  indexSearchText(db)
  return counts
}
