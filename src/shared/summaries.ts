/** What an import or a pull did, in a sentence: the same words in the page, the job tray and the command line. */
import type { MTurkPullResult } from './contract/mturk'
import { formatCount, plural } from './text'

/**
 * `Added 4,000 submissions and 18,700 annotations.` With the files an import read, an import that
 * added nothing says whether the files held nothing new or no rows at all.
 */
export function describeAdded(counts: {
  submissions: number
  annotations: number
  files?: readonly { records: number }[]
}): string {
  if (counts.submissions === 0 && counts.annotations === 0) {
    const files = counts.files ?? []
    if (files.length > 0 && files.every((f) => f.records === 0)) {
      return files.length === 1
        ? 'Nothing was added: the file holds no rows, only its header.'
        : 'Nothing was added: the files hold no rows, only their headers.'
    }
    return 'Nothing new: all of it was in the project already.'
  }
  return `Added ${plural(counts.submissions, 'submission')} and ${plural(counts.annotations, 'annotation')}.`
}

/** `12 HITs: 480 assignments fetched, 40 new, 3 status changes.` */
export function describePull(result: MTurkPullResult): string {
  return [
    result.resumed ? 'Resumed the interrupted pull. ' : '',
    `${plural(result.hits, 'HIT')}: ${plural(result.assignments, 'assignment')} fetched, `,
    `${formatCount(result.new)} new, ${plural(result.updated, 'status change')}`,
    result.skipped ? `, ${plural(result.skipped, 'HIT')} unchanged (not fetched)` : '',
    result.gone ? `, ${plural(result.gone, 'HIT')} no longer on MTurk` : '',
    '.',
  ].join('')
}
