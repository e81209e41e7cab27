import { describe, expect, it } from 'vitest'
import { useTempDir } from '../../helpers/tmp'
import { expectRowsKept, migrateTo, projectAt, rowsOf, writeGlucoseWork } from './helpers'

describe('migration 009 (the process running a pull)', () => {
  const tempDir = useTempDir()

  it('keeps every pull, the earlier ones with no runner recorded', () => {
    const project = projectAt(tempDir(), 8)
    writeGlucoseWork(project.db)
    project.db.exec(`
      INSERT INTO mturk_pulls (id, mode, selection, endpoint, state, started_at, finished_at,
          hits, assignments, added, updated, change_set_id, error)
        VALUES (1, 'all', '{"hitTypeIds":[]}', 'https://mturk-requester-sandbox.us-east-1.amazonaws.com',
                'done', 1700000004000, 1700000005000, 3, 40, 38, 2, 1, NULL),
               (2, 'new', '{"hitTypeIds":["T1"]}', 'https://mturk-requester-sandbox.us-east-1.amazonaws.com',
                'running', 1700000006000, NULL, 1, 0, 0, 0, NULL, NULL);
    `)
    const before = rowsOf(project.db)

    migrateTo(project, 9)
    expectRowsKept(project.db, before)
    // A pull left running by a Winnow that did not record its process: no runner, so the next
    // pull of the same selection resumes it rather than waiting for a process that is gone.
    expect(
      project.db.prepare('SELECT id, state, runner FROM mturk_pulls ORDER BY id').all(),
    ).toEqual([
      { id: 1, state: 'done', runner: null },
      { id: 2, state: 'running', runner: null },
    ])
    project.db.close()
  })
})
