import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { drawAudit, judge } from '../../src/main/audits/audits'
import { readFacts } from '../../src/main/policies/facts'
import { auditResults } from '../../src/main/release/audits'
import { useTempDir } from '../helpers/tmp'
import { saveReleaseSettings } from '../../src/main/release/settings'
import { TEST_CARD, exportNow } from '../release/helpers'
import { type Sub, projectWith } from '../triage/fixture'

// Audit results reach the two readers that report on quality: a policy's facts and a release's
// datasheet. An audit nobody has judged yet is in neither.
const SUBS: Sub[] = Array.from({ length: 30 }, (_, i) => ({
  worker: ['W1', 'W2'][i % 2] as string,
  at: `2019-09-${String(1 + (i % 20)).padStart(2, '0')}`,
  dims: [1, 6],
}))

describe('audit results as facts and in the datasheet', () => {
  const tempDir = useTempDir()

  it('reach a policy and a release with their judged counts and interval', () => {
    const dir = tempDir()
    const db = projectWith(dir, SUBS)
    const audit = drawAudit(db, {
      name: 'W1 spot check',
      filter: { workers: ['W1'] },
      n: 10,
      seed: 3,
      author: 't',
    })
    const ids = audit.items.map((i) => i.annotationId)
    ids
      .slice(0, 7)
      .forEach((id) =>
        judge(db, { auditId: audit.result.id, annotationId: id, verdict: 'yes', author: 't' }),
      )
    ids
      .slice(7, 9)
      .forEach((id) =>
        judge(db, { auditId: audit.result.id, annotationId: id, verdict: 'no', author: 't' }),
      )
    judge(db, {
      auditId: audit.result.id,
      annotationId: ids[9] as number,
      verdict: 'skip',
      author: 't',
    })
    drawAudit(db, { name: 'not judged', filter: {}, n: 5, seed: 1, author: 't' })

    expect(readFacts(db).audits).toEqual([
      {
        id: audit.result.id,
        name: 'W1 spot check',
        workers: ['W1'],
        rating: null,
        sampled: 9,
        passed: 7,
        precision: 7 / 9,
      },
    ])

    const [released, ...others] = auditResults(db, undefined)
    expect(others).toEqual([])
    expect(released).toMatchObject({ sampled: 9, passed: 7, precision: 7 / 9 })
    expect(released?.description).toContain('W1 spot check')
    expect(released?.interval.low).toBeCloseTo(0.453, 3)
    expect(released?.interval.high).toBeCloseTo(0.937, 3)
    // An export as of a moment before the audit was drawn does not list it.
    expect(auditResults(db, (released?.finishedAt ?? 0) - 1)).toEqual([])
    saveReleaseSettings(db, join(dir, 'triage.winnow'), { card: TEST_CARD }, 'lead')
    db.close()

    const result = exportNow(join(dir, 'triage.winnow'), { out: join(dir, 'release') })
    expect(result.datasheet).not.toContain('No audits recorded.')
    expect(result.datasheet).toMatch(/W1 spot check.*\| 9 \| 7 \| 0\.778 \| 0\.453–0\.937 \(95%\)/)
  })
})
