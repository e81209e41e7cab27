import { openProject } from '../../db/connection'
import { localAuthor } from '../../ratings/author'
import { revertChangeSet } from '../../ratings/revert'
import { type Command, UsageError, dbOption, requireString } from '../command'
import { ratingOutput } from './rate'

export const revertCommand: Command = {
  name: 'revert',
  summary: 'Revert a change set by adding compensating rows (revert a revert to re-apply)',
  usage: 'winnow revert CHANGESET --db P [--preview] [--json]',
  positionals: true,
  options: { ...dbOption, preview: { type: 'boolean' } },
  run(values, positionals) {
    if (positionals.length !== 1) throw new UsageError('name exactly one CHANGESET id')
    const text = positionals[0] as string
    const id = Number(text)
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(id) || id <= 0) {
      throw new UsageError(`CHANGESET must be a change set id, got '${text}'`)
    }
    const db = openProject(requireString(values, 'db'))
    try {
      return ratingOutput(
        revertChangeSet(db, id, { author: localAuthor(), preview: values.preview === true }),
      )
    } finally {
      db.close()
    }
  },
}
