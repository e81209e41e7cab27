import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { drawAudit, judge } from '../../src/main/audits/audits'
import { openProject } from '../../src/main/db/connection'
import { QUIET } from '../../src/main/jobs/writeHooks'
import { rate } from '../../src/main/tasks/writeTasks'
import { undo } from '../../src/main/ratings/revert'
import { saveReleaseSettings } from '../../src/main/release/settings'
import { markAnnotation, startQueue } from '../../src/main/triage/queue'
import { useTempDir } from '../helpers/tmp'
import { exportNow, releaseProject, releaseSubmissions } from '../release/helpers'

describe('a release lists the change sets of ratings', () => {
  const tempDir = useTempDir()

  it('and not triage marks, verdicts, settings or their undoing, which every write now records', () => {
    const dir = tempDir()
    const { db: path } = releaseProject(dir, releaseSubmissions(30, 3))
    const db = openProject(path)
    const first = db.prepare('SELECT min(id) FROM annotations').pluck().get() as number
    rate(
      db,
      {
        target: { kind: 'selection', annotationIds: [first], submissionIds: [] },
        value: 1,
        author: 'r',
      },
      QUIET,
    )
    const day = db
      .prepare("SELECT strftime('%Y-%m-%d', min(submitted_at), 'unixepoch') FROM annotations")
      .pluck()
      .get() as string
    const queue = startQueue(db, { from: day, to: day, share: 1, seed: 1, author: 'r' })
    const annotationId = queue.items[0]?.annotationIds[0] ?? 0
    markAnnotation(db, { queueId: queue.id, annotationId, mark: 'bad', author: 'r' })
    undo(db, 'r')
    const audit = drawAudit(db, { name: 'spot', filter: {}, n: 2, seed: 1, author: 'r' })
    judge(db, {
      auditId: audit.result.id,
      annotationId: audit.items[0]?.annotationId ?? 0,
      verdict: 'yes',
      author: 'r',
    })
    saveReleaseSettings(db, path, { tierMap: [{ rating: 1, tier: 1 }] }, 'r')
    const kinds = db.prepare('SELECT kind FROM change_sets ORDER BY id').pluck().all()
    // The project's dataset card, filled in when it was made, is a setting of its own.
    expect(kinds).toEqual([
      'import',
      'setting',
      'manual',
      'triage',
      'triage',
      'revert',
      'audit',
      'audit',
      'setting',
    ])
    db.close()

    const out = join(dir, 'release')
    exportNow(path, { out, formats: ['csv'] })
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as {
      changeSets: { kind: string }[]
    }
    expect(manifest.changeSets.map((c) => c.kind)).toEqual(['import', 'manual'])
    const datasheet = readFileSync(join(out, 'datasheet.md'), 'utf8')
    expect(datasheet).not.toMatch(/Marked bad|Judged yes|Tier map:/)
  })
})
