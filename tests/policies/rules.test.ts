import { describe, expect, it } from 'vitest'
import { drawAudit, judge } from '../../src/main/audits/audits'
import { type Db, TempStore } from '../../src/main/db/connection'
import { rateSelection } from '../../src/main/ratings/rateTargets'
import { revertChangeSet, undo } from '../../src/main/ratings/revert'
import {
  applyEvaluated,
  applyPolicy,
  dryRunPolicy,
  evaluatePolicy,
  outlinePolicy,
} from '../../src/main/policies/run'
import { policyRunDetail } from '../../src/main/policies/history'
import { ratingScale, setRatingScale } from '../../src/main/ratings/scale'
import { markAnnotation, startQueue } from '../../src/main/triage/queue'
import { saveTriageSettings, triageSettings } from '../../src/main/triage/settings'
import { runWrite } from '../../src/main/tasks/writeTasks'
import { useTempDir } from '../helpers/tmp'
import { day, expectConsistent, importSubmissions, newProject } from '../ratings/helpers'
import { policyText, ratingsSnapshot, tableCounts } from './helpers'

/**
 * Workers W1 (rated 3), W2 (rated −2), W3 (rated −1) with two annotations per submission, on
 * three days; W3's last submission has no file rating (unrated).
 */
function project(dir: string): Db {
  const db = newProject(dir)
  importSubmissions(db, [
    { worker: 'W1', at: day('2019-09-01'), fileRating: 3 },
    { worker: 'W1', at: day('2019-09-02'), fileRating: 3 },
    { worker: 'W1', at: day('2019-09-03'), fileRating: 3 },
    { worker: 'W2', at: day('2019-09-01'), fileRating: -2 },
    { worker: 'W2', at: day('2019-09-03'), fileRating: -2 },
    { worker: 'W3', at: day('2019-09-02'), fileRating: -1 },
    { worker: 'W4', at: day('2019-09-02'), fileRating: null },
  ])
  return db
}

const FILE = 'test.ts'

function input(source: string, params?: Record<string, unknown>) {
  return { source, fileName: FILE, ...(params ? { params: params as never } : {}) }
}

describe('policy rules', () => {
  const tempDir = useTempDir()

  it('moves each annotation by the first rule that selects it, counting per rule', async () => {
    const db = project(tempDir())
    const source = policyText(`    return [
      rule({ name: 'W1 to 2', where: { workers: ['W1'] }, to: 2 }),
      rule({ name: 'all 3s to 1', where: { ratings: [3] }, to: 1 }),
      rule({ name: 'rushing', where: { ratings: [-2] }, to: 2, reason: 'good rules' }),
      rule({ name: 'everything else', where: {}, to: 1 }),
    ]`)
    const before = tableCounts(db)
    const report = await dryRunPolicy(db, input(source))
    expect(tableCounts(db)).toEqual(before)
    expect(report.rules.map((r) => [r.name, r.selected, r.annotations, r.workers, r.line])).toEqual(
      [
        ['W1 to 2', 6, 6, 1, 8],
        ['all 3s to 1', 0, 0, 0, 9],
        ['rushing', 4, 4, 1, 10],
        // W3's −1 (2) and W4's unrated (2) move; nothing else is left.
        ['everything else', 4, 4, 2, 11],
      ],
    )
    expect(report.transitions).toEqual([
      { from: 3, to: 2, annotations: 6 },
      { from: -1, to: 1, annotations: 2 },
      { from: -2, to: 2, annotations: 4 },
      { from: null, to: 1, annotations: 2 },
    ])
    expect(report.changed).toBe(14)
    // Up to five samples per rule.
    expect(report.samples.map((x) => x.rule)).toEqual([0, 0, 0, 0, 0, 2, 2, 2, 2, 3, 3, 3, 3])
    const applied = await applyPolicy(db, { ...input(source), basis: report.basis, author: 'lead' })
    expect(applied.changed).toBe(14)
    expect(ratingsSnapshot(db).map((r) => r.rating)).toEqual([
      2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1,
    ])
    expectConsistent(db)
    const notes = db
      .prepare('SELECT DISTINCT note FROM item_ratings WHERE change_set_id = ? ORDER BY note')
      .pluck()
      .all(applied.changeSet)
    expect(notes).toEqual([
      'Test policy: W1 to 2',
      'Test policy: everything else',
      'Test policy: rushing — good rules',
    ])
  })

  it("keeps the moves in a file while the app's apply writes them, then the connection as it was", async () => {
    // The apply job's connection, as the task thread opens it: temporary tables in memory.
    const db = project(tempDir())
    expect(db.pragma('temp_store', { simple: true })).toBe(TempStore.memory)
    const source = policyText(`    return [rule({ name: 'all to 1', where: {}, to: 1 })]`)
    const evaluation = await evaluatePolicy(db, input(source))
    const stores: unknown[] = []
    const applied = runWrite(
      db,
      'policy',
      { evaluation, source, fileName: FILE, author: 'lead' },
      {
        progress: () => stores.push(db.pragma('temp_store', { simple: true })),
        cancelled: () => false,
      },
    )
    expect(applied.changed).toBe(14)
    expect(stores).toEqual([TempStore.file, TempStore.file, TempStore.file])
    expect(db.pragma('temp_store', { simple: true })).toBe(TempStore.memory)
    expectConsistent(db)
  })

  it('claims an annotation already at its target without writing a rating for it', async () => {
    const db = project(tempDir())
    const source = policyText(`    return [
      rule({ name: 'keep W1', where: { workers: ['W1'] }, to: 3 }),
      rule({ name: 'all to 1', where: {}, to: 1 }),
    ]`)
    const report = await dryRunPolicy(db, input(source))
    expect(report.rules[0]).toMatchObject({ selected: 6, annotations: 0, workers: 0 })
    expect(report.rules[1]).toMatchObject({ selected: 8, annotations: 8 })
    const applied = await applyPolicy(db, { ...input(source), author: 'lead' })
    const written = db
      .prepare('SELECT count(*) FROM item_ratings WHERE change_set_id = ?')
      .pluck()
      .get(applied.changeSet)
    expect(written).toBe(8)
  })

  it('selects by dimension, submission days and any review-grid filter', async () => {
    const db = project(tempDir())
    const source = policyText(`    return [
      rule({ name: 'dim 2 of W1', where: { workers: ['W1'], dimensions: [2] }, to: 2 }),
      rule({ name: 'Sep 2–3', where: { submitted: { from: '2019-09-02', to: '2019-09-03' }, ratings: [3] }, to: 1 }),
      rule({ name: 'grid', where: { filter: { workers: ['W2'], from: '2019-09-03' } }, to: 2 }),
    ]`)
    const r = await dryRunPolicy(db, input(source))
    expect(r.rules.map((x) => x.annotations)).toEqual([3, 2, 2])
    expect(r.transitions).toEqual([
      { from: 3, to: 2, annotations: 3 },
      { from: 3, to: 1, annotations: 2 },
      { from: -2, to: 2, annotations: 2 },
    ])
  })

  it('takes every parameter type from defaults, values and command-line text', async () => {
    const db = project(tempDir())
    const source = policyText(
      `    return [
      rule({ name: 'n', where: { workers: params.who, ratings: params.from }, to: params.to }),
      ...(params.also ? [rule({ name: 'b', where: { ratings: [-1] }, to: 1 })] : []),
      ...(params.limit === null ? [] : [rule({ name: 'c', where: { ratings: [-2] }, to: 2 })]),
    ]`,
      {
        params: `{
        who: { type: 'workers', default: ['W1'] },
        from: { type: 'ratings', default: [3] },
        to: { type: 'rating', default: 2 },
        also: { type: 'boolean', default: false },
        limit: { type: 'number', default: null, optional: true, min: 0, max: 10 },
      }`,
      },
    )
    const outline = await outlinePolicy(source, FILE)
    expect(outline.params.map((p) => [p.name, p.type, p.default])).toEqual([
      ['who', 'workers', ['W1']],
      ['from', 'ratings', [3]],
      ['to', 'rating', 2],
      ['also', 'boolean', false],
      ['limit', 'number', null],
    ])
    const byDefault = await dryRunPolicy(db, input(source))
    expect(byDefault.rules.map((r) => r.annotations)).toEqual([6])
    const text = await dryRunPolicy(
      db,
      input(source, { who: 'W1,W2', from: '3, -2', to: '1', also: 'true', limit: '4' }),
    )
    expect(text.params).toEqual({ who: ['W1', 'W2'], from: [3, -2], to: 1, also: true, limit: 4 })
    expect(text.rules.map((r) => r.annotations)).toEqual([10, 2, 0])
    const values = await dryRunPolicy(db, input(source, { who: [], also: false, limit: null }))
    expect(values.rules.map((r) => r.annotations)).toEqual([0])
    for (const [params, message] of [
      [{ who: 'W1,W9' }, /who: no worker W9/],
      [{ from: '3,7' }, /from: 7 is not on this project's rating scale/],
      [{ to: 'x' }, /to: expected a number/],
      [{ also: 'maybe' }, /also: expected true or false/],
      [{ limit: '11' }, /limit: must be at most 10/],
      [{ nope: '1' }, /no parameter 'nope'/],
    ] as const) {
      await expect(dryRunPolicy(db, input(source, params))).rejects.toThrow(message)
    }
  })

  it('names the line of a rule with an unknown rating or worker, and changes nothing', async () => {
    const db = project(tempDir())
    const before = { counts: tableCounts(db), ratings: ratingsSnapshot(db) }
    const unknownWorker = policyText(`    return [
      rule({ name: 'ok', where: {}, to: 1 }),
      rule({ name: 'bad', where: { workers: ['W1', 'ZZ'] }, to: 1 }),
    ]`)
    await expect(applyPolicy(db, { ...input(unknownWorker), author: 'x' })).rejects.toMatchObject({
      info: {
        file: FILE,
        line: 9,
        message: expect.stringMatching(/Rule 2 \(bad\): no worker ZZ/) as unknown,
      },
    })
    const unknownRating = policyText(`    return [
      rule({ name: 'bad', where: { ratings: [3] }, to: 2.5 }),
    ]`)
    await expect(applyPolicy(db, { ...input(unknownRating), author: 'x' })).rejects.toMatchObject({
      info: {
        line: 8,
        message: expect.stringMatching(/rating 2.5 is not on this project's scale/) as unknown,
      },
    })
    const badShape = policyText(`    return [{ name: 'no target', where: {} }]`)
    await expect(applyPolicy(db, { ...input(badShape), author: 'x' })).rejects.toThrow(
      /Rule 1 \(to\)/,
    )
    expect({ counts: tableCounts(db), ratings: ratingsSnapshot(db) }).toEqual(before)
  })

  it('stores the script, hash, parameters and report, and revert restores every rating', async () => {
    const db = project(tempDir())
    const source = policyText(`    return [
      rule({ name: 'rushing', where: { ratings: [-2] }, to: 2 }),
      rule({ name: 'W1', where: { workers: ['W1'] }, to: 1 }),
      rule({ name: 'rest', where: {}, to: 1 }),
    ]`)
    // An item rating of its own, to be restored exactly.
    const firstW3 = db
      .prepare(
        "SELECT min(id) FROM annotations WHERE worker_id = (SELECT id FROM workers WHERE external_id = 'W3')",
      )
      .pluck()
      .get() as number
    rateSelection(db, { annotationIds: [firstW3], submissionIds: [] }, { value: 0, author: 't' })
    const before = ratingsSnapshot(db)
    const applied = await applyPolicy(db, { ...input(source), author: 'lead' })
    expect(applied.changeSet).not.toBeNull()
    const run = policyRunDetail(db, applied.changeSet ?? 0)
    expect(run).toMatchObject({ name: 'Test policy', fileName: FILE, script: source, params: {} })
    expect(run.sha256).toMatch(/^[0-9a-f]{64}$/)
    expect(run.report.transitions).toEqual(applied.transitions)
    const kind = db
      .prepare('SELECT kind FROM change_sets WHERE id = ?')
      .pluck()
      .get(applied.changeSet)
    expect(kind).toBe('policy')
    revertChangeSet(db, applied.changeSet ?? 0, { author: 'lead' })
    expect(ratingsSnapshot(db)).toEqual(before)
    expectConsistent(db)
    // Undo steps through policies too: revert the revert, then undo the policy again.
    const again = await applyPolicy(db, { ...input(source), author: 'lead' })
    expect(undo(db, 'lead')?.changed).toBe(again.changed)
    expect(ratingsSnapshot(db)).toEqual(before)
  })

  it('writes the same change set for the same script, data and parameters', async () => {
    const source =
      policyText(`    const w = facts.workers.filter((x) => Math.random() < 0.5).map((x) => x.id)
    return [rule({ name: 'some', where: { workers: w }, to: 1 }), rule({ name: 'rest', where: { ratings: [-2] }, to: 2 })]`)
    const contents = async (): Promise<unknown> => {
      const db = project(tempDir())
      const applied = await applyPolicy(db, { ...input(source), author: 'lead' })
      const rows = db
        .prepare(
          'SELECT annotation_id, value, note FROM item_ratings WHERE change_set_id = ? ORDER BY id',
        )
        .all(applied.changeSet)
      db.close()
      return { rows, transitions: applied.transitions }
    }
    expect(await contents()).toEqual(await contents())
  })

  it('an apply with no dry run to confirm says the project changed while the policy ran', async () => {
    const db = project(tempDir())
    const source = policyText(`    return [rule({ name: 'rest', where: {}, to: 1 })]`)
    // As `winnow policy run` without --dry-run: the script runs, then its moves are written;
    // here a rating comes in between.
    const evaluation = await evaluatePolicy(db, input(source))
    const ann = db.prepare('SELECT min(id) FROM annotations').pluck().get() as number
    rateSelection(db, { annotationIds: [ann], submissionIds: [] }, { value: 2, author: 't' })
    const before = { counts: tableCounts(db), ratings: ratingsSnapshot(db) }
    expect(() => applyEvaluated(db, { evaluation, source, fileName: FILE, author: 'x' })).toThrow(
      'The project changed while the policy ran (a rating, an import, an audit verdict or a new rating scale in between); nothing was changed by it. Run it again.',
    )
    expect({ counts: tableCounts(db), ratings: ratingsSnapshot(db) }).toEqual(before)
  })

  it('refuses to apply after a rating, import or audit verdict since the dry run, or a changed script', async () => {
    const db = project(tempDir())
    const source = policyText(`    return [rule({ name: 'rest', where: {}, to: 1 })]`)
    const report = await dryRunPolicy(db, input(source))
    const ann = db.prepare('SELECT min(id) FROM annotations').pluck().get() as number
    rateSelection(db, { annotationIds: [ann], submissionIds: [] }, { value: 2, author: 't' })
    const before = { counts: tableCounts(db), ratings: ratingsSnapshot(db) }
    await expect(
      applyPolicy(db, { ...input(source), basis: report.basis, author: 'x' }),
    ).rejects.toMatchObject({ info: { code: 'policy-data-changed' } })
    const second = await dryRunPolicy(db, input(source))
    importSubmissions(db, [{ worker: 'W5', at: day('2019-09-05'), fileRating: 2 }])
    await expect(
      applyPolicy(db, { ...input(source), basis: second.basis, author: 'x' }),
    ).rejects.toThrow(/changed since the dry run/)
    const third = await dryRunPolicy(db, input(source))
    await expect(
      applyPolicy(db, { ...input(source + '\n'), basis: third.basis, author: 'x' }),
    ).rejects.toMatchObject({ info: { code: 'policy-script-changed' } })
    expect(tableCounts(db).policy_runs).toBe(before.counts.policy_runs)
    // An audit verdict changes the facts a policy reads.
    const audit = drawAudit(db, { name: 'spot', filter: {}, n: 2, seed: 1, author: 't' })
    const fourth = await dryRunPolicy(db, input(source))
    judge(db, {
      auditId: audit.result.id,
      annotationId: audit.items[0]?.annotationId ?? 0,
      verdict: 'no',
      author: 't',
    })
    await expect(
      applyPolicy(db, { ...input(source), basis: fourth.basis, author: 'x' }),
    ).rejects.toThrow(/an audit verdict/)
    expect(tableCounts(db).policy_runs).toBe(before.counts.policy_runs)
    const fifth = await dryRunPolicy(db, input(source))
    const ok = await applyPolicy(db, { ...input(source), basis: fifth.basis, author: 'x' })
    expect(ok.changeSet).not.toBeNull()
    // The apply took the dry run's rules: the script did not run again.
    expect(ok.timings.scriptMs).toBe(fifth.timings.scriptMs)
    expect(ok.timings.factsMs).toBe(fifth.timings.factsMs)
  })
  it('applies after a triage mark or another setting since the dry run, and refuses after a new rating scale', async () => {
    const db = project(tempDir())
    const source = policyText(`    return [rule({ name: 'rest', where: {}, to: 1 })]`)
    const first = await dryRunPolicy(db, input(source))
    const queue = startQueue(db, {
      from: '2019-09-01',
      to: '2019-09-03',
      share: 1,
      seed: 1,
      author: 't',
    })
    const annotationId = queue.items[0]?.annotationIds[0] ?? 0
    markAnnotation(db, { queueId: queue.id, annotationId, mark: 'good', author: 't' })
    saveTriageSettings(db, { ...triageSettings(db), rushSeconds: 5 }, 't')
    const applied = await applyPolicy(db, { ...input(source), basis: first.basis, author: 'x' })
    expect(applied.changeSet).not.toBeNull()

    const second = await dryRunPolicy(db, input(source))
    setRatingScale(db, [...ratingScale(db), { value: 5, label: 'Gold', color: '#123456' }], 't')
    await expect(
      applyPolicy(db, { ...input(source), basis: second.basis, author: 'x' }),
    ).rejects.toMatchObject({ info: { code: 'policy-data-changed' } })
    db.close()
  })
})
