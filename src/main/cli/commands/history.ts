import { openProject } from '../../db/connection'
import { history } from '../../ratings/history'
import { type Command, dbOption, optionalString, parseNumber, requireString } from '../command'

export const historyCommand: Command = {
  name: 'history',
  summary: 'List change sets of every kind, newest first, with their authors',
  usage: 'winnow history --db P [--limit N] [--json]',
  options: { ...dbOption, limit: { type: 'string' } },
  run(values) {
    const limitText = optionalString(values, 'limit')
    const limit =
      limitText === undefined ? 1000 : parseNumber(limitText, 'limit', { integer: true, min: 1 })
    const db = openProject(requireString(values, 'db'))
    try {
      const changeSets = history(db, { limit })
      const json = {
        changeSets: changeSets.map((c) => ({
          id: c.id,
          kind: c.kind,
          author: c.author,
          at: c.at,
          description: c.description,
          changed: c.changed,
          revertedBy: c.revertedBy,
        })),
      }
      const text = changeSets
        .map(
          (c) =>
            `${String(c.id).padStart(5)}  ${new Date(c.at).toISOString()}  ${c.kind.padEnd(7)} ${String(c.changed).padStart(8)} changed  ${c.author}: ${c.description}` +
            (c.revertedBy === null ? '' : `  (reverted by ${c.revertedBy})`),
        )
        .join('\n')
      return { json, text: text || 'No change sets.' }
    } finally {
      db.close()
    }
  },
}
