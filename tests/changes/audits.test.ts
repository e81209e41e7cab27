import { describe, expect, it } from 'vitest'
import { drawAudit, drawMore, judge } from '../../src/main/audits/audits'
import { history } from '../../src/main/ratings/history'
import { redo, revertChangeSet, undo } from '../../src/main/ratings/revert'
import { useTempDir } from '../helpers/tmp'
import { type Sub, projectWith } from '../triage/fixture'
import { changeSetsAfter, lastChangeSetId } from './record'

/** 30 submissions of 2 dimensions: 60 annotations. */
const SUBS: Sub[] = Array.from({ length: 30 }, (_, i) => ({
  worker: ['W1', 'W2'][i % 2] as string,
  at: `2019-09-${String(1 + (i % 9)).padStart(2, '0')}`,
  dims: [1, 4],
}))

describe('audit writes are change sets', () => {
  const tempDir = useTempDir()

  it('drawing an audit and drawing more are change sets that name the items they drew', () => {
    const db = projectWith(tempDir(), SUBS)
    const before = lastChangeSetId(db)
    const t0 = Date.now()
    const audit = drawAudit(db, {
      name: 'W1 check',
      filter: { workers: ['W1'] },
      n: 4,
      seed: 9,
      author: 'ida',
    })
    drawMore(db, audit.result.id, 3, 'joe')
    const [drawn, more] = changeSetsAfter(db, before)
    expect(drawn).toMatchObject({
      kind: 'audit',
      author: 'ida',
      description: `Drew audit ${audit.result.id} “W1 check”: 4 items (seed 9)`,
      entries: [],
    })
    expect(drawn?.at).toBeGreaterThanOrEqual(t0)
    expect(more).toMatchObject({
      kind: 'audit',
      author: 'joe',
      description: `Drew 3 more items for audit ${audit.result.id} “W1 check”`,
    })
    expect(
      db
        .prepare('SELECT change_set_id FROM audit_items WHERE audit_id = ? ORDER BY position')
        .pluck()
        .all(audit.result.id),
    ).toEqual([...Array<number>(4).fill(drawn?.id ?? 0), ...Array<number>(3).fill(more?.id ?? 0)])
    expect(db.prepare('SELECT change_set_id FROM audits').pluck().get()).toBe(drawn?.id)
    expect(history(db, { limit: 2 }).map((c) => c.revertable)).toEqual([false, false])
    // Drawing past the end of the query draws nothing and records nothing.
    drawMore(db, audit.result.id, 100, 'joe')
    drawMore(db, audit.result.id, 100, 'joe')
    expect(changeSetsAfter(db, before)).toHaveLength(3)
    db.close()
  })

  it('a verdict is a change set with its audit, item, verdict and note; undo puts back the verdict before', () => {
    const db = projectWith(tempDir(), SUBS)
    const audit = drawAudit(db, { name: 'spot', filter: {}, n: 5, seed: 2, author: 'ida' })
    const auditId = audit.result.id
    const item = audit.items[2]
    const annotationId = item?.annotationId ?? 0
    const before = lastChangeSetId(db)
    judge(db, { auditId, annotationId, verdict: 'yes', author: 'ida' })
    const judged = judge(db, {
      auditId,
      annotationId,
      verdict: 'no',
      note: 'wrong cause',
      author: 'ida',
    })
    expect(judged.result).toMatchObject({ yes: 0, no: 1 })
    const sets = changeSetsAfter(db, before)
    expect(sets.map((s) => [s.kind, s.author, s.description])).toEqual([
      ['audit', 'ida', `Judged yes: item 3 of audit ${auditId} “spot”`],
      ['audit', 'ida', `Judged no: item 3 of audit ${auditId} “spot”`],
    ])
    expect(sets[1]?.entries).toEqual([
      {
        subject: 'audit.verdict',
        key: { audit: auditId, annotation: annotationId },
        value: { verdict: 'no', note: 'wrong cause' },
      },
    ])
    const state = () =>
      db
        .prepare(
          'SELECT verdict, note, judged_at AS judgedAt FROM audit_items WHERE audit_id = ? AND annotation_id = ?',
        )
        .get(auditId, annotationId)
    expect(state()).toEqual({ verdict: 'no', note: 'wrong cause', judgedAt: sets[1]?.at })
    undo(db, 'ida')
    expect(state()).toEqual({ verdict: 'yes', note: '', judgedAt: expect.any(Number) as number })
    undo(db, 'ida')
    expect(state()).toEqual({ verdict: null, note: '', judgedAt: null })
    redo(db, 'ida')
    expect(state()).toMatchObject({ verdict: 'yes', note: '' })
    db.close()
  })

  it('items drawn because the interval was still too wide are a change set of their own, which undoing the verdict leaves', () => {
    const db = projectWith(tempDir(), SUBS)
    const audit = drawAudit(db, {
      name: 'until ±5',
      filter: {},
      n: 2,
      seed: 7,
      targetMargin: 0.05,
      author: 'ida',
    })
    const auditId = audit.result.id
    const [a, b] = audit.items.map((i) => i.annotationId)
    judge(db, { auditId, annotationId: a ?? 0, verdict: 'yes', author: 'ida' })
    const before = lastChangeSetId(db)
    const last = judge(db, { auditId, annotationId: b ?? 0, verdict: 'yes', author: 'ida' })
    expect(last.items).toHaveLength(12)
    const [verdict, topUp] = changeSetsAfter(db, before)
    expect(verdict?.entries).toHaveLength(1)
    expect(topUp).toMatchObject({
      kind: 'audit',
      description: `Drew 10 more items for audit ${auditId} “until ±5” (its interval is still wider than its target)`,
      entries: [],
    })
    undo(db, 'ida')
    const items = db
      .prepare('SELECT verdict FROM audit_items WHERE audit_id = ? ORDER BY position')
      .pluck()
      .all(auditId)
    expect(items).toEqual(['yes', ...Array<null>(11).fill(null)])
    expect(() => revertChangeSet(db, topUp?.id ?? 0, { author: 'ida' })).toThrow(
      /cannot be reverted/,
    )
    db.close()
  })
})
