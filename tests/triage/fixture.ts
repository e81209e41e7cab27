import { join } from 'node:path'
import { type Db, openProject } from '../../src/main/db/connection'
import { createChangeSet } from '../../src/main/db/queries/changes/sets'
import { SubmissionWriter } from '../../src/main/db/queries/submissions'
import type { ImportedSubmission } from '../../src/main/importers/types'
import { dayStart } from '../../src/shared/filter'

/** One hand-made submission: worker, time of submission, dimensions filled, work seconds. */
export interface Sub {
  worker: string
  /** `YYYY-MM-DD` (at 10:00 UTC) or `YYYY-MM-DDTHH:MM` */
  at: string
  dims: number[]
  /** submitted − accepted; absent: no accept time. */
  work?: number
}

let counter = 0

function submitted(at: string): number {
  return at.length === 10 ? dayStart(at) + 10 * 3600 : Date.parse(`${at}:00Z`) / 1000
}

function submission(s: Sub): ImportedSubmission {
  counter++
  const story = `story-${counter}`
  const sentences = ['A b.', 'C d.', 'E f.', 'G h.', 'I j.']
  const at = submitted(s.at)
  return {
    sourceKey: `e:${story}|${s.worker}|${counter}`,
    assignmentId: null,
    workerExternalId: s.worker,
    workerRef: null,
    storyExternalId: story,
    storyText: sentences.join(' '),
    sentences: sentences.map((text, index) => ({ index, text })),
    sentenceIndex: 2,
    submittedAt: at,
    acceptedAt: s.work === undefined ? null : at - s.work,
    fileRating: null,
    declaredFilled: s.dims.length,
    line: counter,
    flags: 0,
    raw: null,
    annotations: s.dims.map((dimension) => ({
      dimension,
      specificNL: `statement ${counter} ${dimension}`,
      specificStructured: null,
      generalNL: `rule ${counter} ${dimension}`,
      generalStructured: null,
      flags: 0,
    })),
  }
}

/** A project in `dir` holding these submissions, written as an import writes. */
export function projectWith(dir: string, subs: readonly Sub[], name = 'triage.winnow'): Db {
  const db = openProject(join(dir, name), { create: true })
  db.transaction(() => {
    const changeSet = createChangeSet(db, { kind: 'import', author: 'test', description: 'test' })
    const writer = new SubmissionWriter(db, changeSet.id, null)
    for (const s of subs) writer.write(submission(s))
    writer.finish()
  })()
  return db
}
