import { openProject } from '../../db/connection'
import { writeSynthetic } from '../../importers/synthetic'
import { describeAdded } from '../../../shared/summaries'
import { type Command, dbOption, parseNumber, requireString } from '../command'
import { progressLine } from '../progress'

export const synthCommand: Command = {
  name: 'synth',
  summary: 'Write realistic generated GLUCOSE-like data into a project (tests, demos, benchmarks)',
  usage: 'winnow synth --db P --submissions N [--seed S] [--json]',
  options: { ...dbOption, submissions: { type: 'string' }, seed: { type: 'string' } },
  run(values, _positionals, io) {
    const count = parseNumber(requireString(values, 'submissions'), 'submissions', {
      integer: true,
      min: 1,
    })
    const seedText = values.seed
    const seed = typeof seedText === 'string' ? parseNumber(seedText, 'seed', { integer: true }) : 1
    const db = openProject(requireString(values, 'db'), { create: true })
    try {
      const progress = io.interactive ? progressLine(io, 'items', 'submissions') : undefined
      const counts = writeSynthetic(
        db,
        { submissions: count, seed },
        progress ? { progress: (done) => progress.update(done, count, done) } : {},
      )
      progress?.done()
      return {
        json: counts,
        text: describeAdded(counts),
      }
    } finally {
      db.close()
    }
  },
}
