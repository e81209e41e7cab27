import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importFiles } from '../../src/main/importers/run'
import type { ImportedSubmission } from '../../src/main/importers/types'
import { mapAssignment } from '../../src/main/mturk/glucose-map'
import { runPull } from '../../src/main/mturk/pullRun'
import { type DemoSeed, seedDemo } from '../../standin/index'
import { writeReleaseCsv } from '../helpers/csv-writers'
import { ALL, count, useConnections, useProject } from './project-helpers'
import { useStandin } from './standin-helpers'

const start = useStandin()
const project = useProject()
const connectTo = useConnections()

/** The seeded assignments as a release-layout file (no assignment ids), as a collection's release. */
function asReleaseFile(seed: DemoSeed, path: string): number {
  const questions = new Map(seed.hits.map((h) => [h.HITId, h.Question]))
  const rows = seed.assignments.map(
    (a) =>
      mapAssignment(
        { Question: questions.get(a.HITId) },
        {
          AssignmentId: a.AssignmentId,
          WorkerId: a.WorkerId,
          Answer: a.Answer,
          SubmitTime: new Date(a.SubmitTime),
        },
      ) as ImportedSubmission,
  )
  return writeReleaseCsv(path, rows, { workerStyle: 'mturk', ratingStyle: 'float' })
}

describe('a pull of assignments an import brought in', () => {
  it('adds nothing after the release file, and the release file adds nothing after the pull', async () => {
    for (const order of ['import first', 'pull first'] as const) {
      const { standin } = await start()
      const seed = seedDemo(standin.state, { hits: 6, assignmentsPerHit: 5 })
      const { db, dir } = project()
      const release = join(dir, 'release.csv')
      expect(asReleaseFile(seed, release)).toBe(30)
      const pull = () =>
        runPull(db, connectTo(standin), ALL, { endpoint: standin.url, author: 'test' })
      if (order === 'import first') {
        expect(importFiles(db, [{ path: release }]).submissions).toBe(30)
        const pulled = await pull()
        expect(pulled.assignments, order).toBe(30)
        expect(count(db, 'SELECT count(*) FROM mturk_assignments')).toBe(30)
      } else {
        expect((await pull()).new).toBe(30)
        expect(importFiles(db, [{ path: release }])).toMatchObject({
          submissions: 0,
          annotations: 0,
        })
      }
      expect(count(db, 'SELECT count(*) FROM submissions'), order).toBe(30)
      expect(count(db, 'SELECT count(*) FROM submissions WHERE assignment_id IS NULL')).toBe(0)
    }
  })
})
