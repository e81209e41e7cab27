import { openProject } from '../../db/connection'
import { projectStats } from '../../db/queries/stats'
import { pastAnnotations } from '../../ratings/asOf'
import { type Command, dbOption, requireString } from '../command'
import { parseAsOfOption } from './rate'
import { plural } from '../../../shared/text'

export const statsCommand: Command = {
  name: 'stats',
  summary: 'Count submissions, annotations, workers and stories, by dimension and rating',
  usage: 'winnow stats --db P [--as-of TIMESTAMP] [--json]',
  options: { ...dbOption, 'as-of': { type: 'string' } },
  run(values) {
    const asOf = parseAsOfOption(values)
    const db = openProject(requireString(values, 'db'))
    try {
      const stats = projectStats(db, pastAnnotations(db, asOf))
      const text = [
        [
          plural(stats.submissions, 'submission'),
          plural(stats.annotations, 'annotation'),
          plural(stats.workers, 'worker'),
          plural(stats.stories, 'story', 'stories'),
        ].join(', '),
        `by dimension: ${Object.entries(stats.byDimension)
          .map(([d, n]) => `${d}: ${n}`)
          .join(', ')}`,
        `by rating: ${Object.entries(stats.byRating)
          .map(([r, n]) => `${r}: ${n}`)
          .join(', ')}`,
      ].join('\n')
      return { json: stats, text }
    } finally {
      db.close()
    }
  },
}
