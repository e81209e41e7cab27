import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { drawAudit, drawMore, judge } from '../../src/main/audits/audits'
import { openProject } from '../../src/main/db/connection'
import { auditResults } from '../../src/main/db/queries/audits'
import { cli } from '../helpers/cli'
import { useTempDir } from '../helpers/tmp'
import { type Sub, projectWith } from '../triage/fixture'

/** 60 submissions of 3 dimensions each (180 annotations) by three workers. */
const SUBS: Sub[] = Array.from({ length: 60 }, (_, i) => ({
  worker: ['W1', 'W2', 'W3'][i % 3] as string,
  at: `2019-09-${String(1 + (i % 20)).padStart(2, '0')}`,
  dims: [1, 2, 6],
}))

describe('audits', () => {
  const tempDir = useTempDir()

  it('draw a seeded sample of a query that the same seed draws again', () => {
    const db = projectWith(tempDir(), SUBS)
    const a = drawAudit(db, {
      name: 'W1 dim 6',
      filter: { workers: ['W1'], dimensions: [6] },
      n: 10,
      seed: 5,
      author: 't',
    })
    const b = drawAudit(db, {
      name: 'again',
      filter: { workers: ['W1'], dimensions: [6] },
      n: 10,
      seed: 5,
      author: 't',
    })
    expect(a.items.map((i) => i.annotationId)).toEqual(b.items.map((i) => i.annotationId))
    expect(a.items.every((i) => i.row?.workerId === 'W1' && i.row.dimension === 6)).toBe(true)
    expect(a.result).toMatchObject({ sample: 10, judged: 0, precision: null, seed: 5 })
    db.close()
  })

  it('draw more without repeating, up to the whole query', () => {
    const db = projectWith(tempDir(), SUBS)
    const audit = drawAudit(db, {
      name: 'W2',
      filter: { workers: ['W2'], dimensions: [1] },
      n: 15,
      seed: 1,
      author: 't',
    })
    const more = drawMore(db, audit.result.id, 10, 't')
    const ids = more.items.map((i) => i.annotationId)
    expect(ids).toHaveLength(20)
    expect(new Set(ids).size).toBe(20)
    expect(ids.slice(0, 15)).toEqual(audit.items.map((i) => i.annotationId))
    expect(drawMore(db, audit.result.id, 10, 't').items).toHaveLength(20)
    db.close()
  })

  it('report the share of yes among yes and no, skips aside, with the Wilson interval', () => {
    const db = projectWith(tempDir(), SUBS)
    const audit = drawAudit(db, { name: 'all', filter: {}, n: 12, seed: 2, author: 't' })
    const ids = audit.items.map((i) => i.annotationId)
    ids
      .slice(0, 8)
      .forEach((id) =>
        judge(db, { auditId: audit.result.id, annotationId: id, verdict: 'yes', author: 't' }),
      )
    ids
      .slice(8, 10)
      .forEach((id) =>
        judge(db, { auditId: audit.result.id, annotationId: id, verdict: 'no', author: 't' }),
      )
    const last = judge(db, {
      auditId: audit.result.id,
      annotationId: ids[10] as number,
      verdict: 'skip',
      note: 'unreadable',
      author: 't',
    })
    expect(last.result).toMatchObject({ judged: 10, yes: 8, no: 2, skipped: 1, precision: 0.8 })
    expect(last.result.low).toBeCloseTo(0.4902, 4)
    expect(last.result.high).toBeCloseTo(0.9433, 4)
    expect(last.items[10]).toMatchObject({ verdict: 'skip', note: 'unreadable' })
    // A verdict can be taken back.
    expect(
      judge(db, {
        auditId: audit.result.id,
        annotationId: ids[0] as number,
        verdict: null,
        author: 't',
      }).result.yes,
    ).toBe(7)
    db.close()
  })

  it('keep sampling until the interval is within the target', () => {
    const db = projectWith(tempDir(), SUBS)
    const audit = drawAudit(db, {
      name: 'target',
      filter: {},
      n: 5,
      seed: 3,
      targetMargin: 0.2,
      author: 't',
    })
    let detail = audit
    for (let guard = 0; guard < 20; guard++) {
      const open = detail.items.find((i) => i.verdict === null)
      if (!open) break
      detail = judge(db, {
        auditId: audit.result.id,
        annotationId: open.annotationId,
        verdict: 'yes',
        author: 't',
      })
    }
    const { result } = detail
    expect(result.sample).toBeGreaterThan(5)
    expect(result.judged).toBe(result.sample)
    expect(((result.high ?? 1) - (result.low ?? 0)) / 2).toBeLessThanOrEqual(0.2)
    db.close()
  })

  it('refuse an item outside the audit and an empty query, changing nothing', () => {
    const db = projectWith(tempDir(), SUBS)
    const audit = drawAudit(db, { name: 'x', filter: {}, n: 3, seed: 1, author: 't' })
    expect(() =>
      judge(db, { auditId: audit.result.id, annotationId: 1, verdict: 'yes', author: 't' }),
    ).toThrow(/not in audit/)
    expect(() =>
      drawAudit(db, { name: 'none', filter: { workers: ['NOBODY'] }, n: 3, author: 't' }),
    ).toThrow(/selects no annotations/)
    expect(auditResults(db).map((r) => r.name)).toEqual(['x'])
    db.close()
  })

  it('are read back as results by a later reader (what policies and the datasheet see)', () => {
    const dir = tempDir()
    const db = projectWith(dir, SUBS)
    const audit = drawAudit(db, {
      name: 'rated 3',
      filter: { ratings: ['unrated'] },
      n: 4,
      seed: 8,
      author: 't',
    })
    audit.items.forEach((i, k) =>
      judge(db, {
        auditId: audit.result.id,
        annotationId: i.annotationId,
        verdict: k < 3 ? 'yes' : 'no',
        author: 't',
      }),
    )
    db.close()
    const reader = openProject(join(dir, 'triage.winnow'), { readonly: true })
    const [result] = auditResults(reader)
    expect(result).toMatchObject({
      name: 'rated 3',
      filter: { ratings: ['unrated'] },
      sample: 4,
      judged: 4,
      yes: 3,
      precision: 0.75,
    })
    expect(result?.low).toBeGreaterThan(0)
    reader.close()
  })

  it('run from the command line: draw, judge, report', async () => {
    const dir = tempDir()
    projectWith(dir, SUBS).close()
    const db = join(dir, 'triage.winnow')
    const drawn = await cli(
      'audit',
      'draw',
      '--db',
      db,
      '--n',
      '4',
      '--seed',
      '11',
      '--dimension',
      '6',
      '--json',
    )
    expect(drawn.code).toBe(0)
    const { audit, items } = drawn.json as { audit: number; items: number[] }
    expect(items).toHaveLength(4)
    const again = await cli(
      'audit',
      'draw',
      '--db',
      db,
      '--n',
      '4',
      '--seed',
      '11',
      '--dimension',
      '6',
      '--json',
    )
    expect((again.json as { items: number[] }).items).toEqual(items)
    for (const [k, id] of items.entries()) {
      const verdict = k === 3 ? 'skip' : k === 2 ? 'no' : 'yes'
      const out = await cli(
        'audit',
        'judge',
        String(audit),
        '--db',
        db,
        '--item',
        String(id),
        '--verdict',
        verdict,
      )
      expect(out.code).toBe(0)
    }
    const report = await cli('audit', 'report', String(audit), '--db', db, '--json')
    const json = report.json as Record<string, number>
    expect(Object.keys(json)).toEqual(['judged', 'yes', 'precision', 'low', 'high'])
    expect(json).toMatchObject({ judged: 3, yes: 2, precision: 2 / 3 })
    const bad = await cli(
      'audit',
      'judge',
      String(audit),
      '--db',
      db,
      '--item',
      String(items[0]),
      '--verdict',
      'maybe',
    )
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain("--verdict must be one of yes, no, skip, got 'maybe'")
    const missing = await cli('audit', 'report', '999', '--db', db)
    expect(missing.code).not.toBe(0)
    expect(missing.stderr).toContain('No audit 999')
  })
})
