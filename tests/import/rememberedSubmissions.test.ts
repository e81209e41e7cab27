import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { all, openProject } from '../../src/main/db/connection'
import { createChangeSet } from '../../src/main/db/queries/changes/sets'
import { SubmissionWriter } from '../../src/main/db/queries/submissions'
import { sql } from '../../src/main/db/sql'
import type { ImportedSubmission } from '../../src/main/importers/types'
import { useTempDir } from '../helpers/tmp'

/** One row of a per-dimension file: submission `n`'s dimension `dimension`. */
function row(n: number, dimension: number): ImportedSubmission {
  return {
    sourceKey: `a:${n}`,
    assignmentId: null,
    workerExternalId: `W${n % 3}`,
    workerRef: null,
    storyExternalId: `story-${n % 5}`,
    storyText: 'A. B.',
    sentences: [{ index: 0, text: 'A.' }],
    sentenceIndex: 0,
    submittedAt: 1568700000 + n,
    acceptedAt: null,
    fileRating: null,
    declaredFilled: 2,
    line: n,
    flags: 0,
    raw: null,
    annotations: [
      {
        dimension,
        specificNL: `s${n}`,
        specificStructured: null,
        generalNL: `g${n}`,
        generalStructured: null,
        flags: 0,
      },
    ],
  }
}

describe('the submission writer', () => {
  const tempDir = useTempDir()

  it('holds a bounded number of submissions by key, and still merges a later row into an earlier one', () => {
    const written = (remember?: number) => {
      const db = openProject(join(tempDir(), 'p.winnow'), { create: true })
      let held = 0
      db.transaction(() => {
        const changeSet = createChangeSet(db, { kind: 'import', author: 't', description: 'i' })
        const writer = new SubmissionWriter(db, changeSet.id, null, undefined, {
          partialRows: true,
          ...(remember === undefined ? {} : { remember }),
        })
        // The first dimension of 20 submissions, then their second: each merges into its first.
        for (let n = 0; n < 20; n++) writer.write(row(n, 1))
        for (let n = 0; n < 20; n++) {
          writer.write(row(n, 2))
          held = Math.max(held, writer.remembered)
        }
        writer.finish()
      })()
      const rows = all(
        db,
        sql`SELECT s.source_key, group_concat(a.dimension) AS dimensions FROM submissions s
            JOIN annotations a ON a.submission_id = s.id GROUP BY s.id ORDER BY s.id`,
      )
      db.close()
      return { rows, held }
    }
    const bounded = written(4)
    expect(bounded.held).toBeLessThanOrEqual(4)
    expect(bounded.rows).toHaveLength(20)
    expect(bounded.rows).toEqual(written().rows)
    expect(bounded.rows[0]).toEqual({ source_key: 'a:0', dimensions: '1,2' })
  })
})
