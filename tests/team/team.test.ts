import { spawn } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { drawAudit, judge } from '../../src/main/audits/audits'
import { openProject } from '../../src/main/db/connection'
import { recomputeAll } from '../../src/main/ratings/effective'
import { undo } from '../../src/main/ratings/revert'
import { syncTeam } from '../../src/main/team/sync'
import { saveReleaseSettings } from '../../src/main/release/settings'
import { triageQueue } from '../../src/main/db/queries/triage'
import { markAnnotation, markReviewed, startQueue } from '../../src/main/triage/queue'
import { cli, ok } from '../helpers/cli'
import { releaseCsv } from '../helpers/glucose'
import { noPostgres } from '../helpers/postgres'
import { type TeamDatabase, forgeChangeSet, importedProject, usePostgres } from '../helpers/team'
import { useTempDir } from '../helpers/tmp'
import { SERVER_SCHEMA_VERSION } from '../../src/main/db/server/schema'

/**
 * Team mode against a real PostgreSQL server started for these tests: publishing, joining,
 * pushing and pulling change sets, roles enforced by the server, passwords, versions.
 */
const root = join(import.meta.dirname, '..', '..')

// Needs a PostgreSQL server (tests/helpers/postgres.ts starts one); where none exists the suite
// skips and the helper says why.
describe.skipIf(noPostgres !== null)('team mode', () => {
  const postgres = usePostgres({ db: 'team', lead: 'lead' })
  const tempDir = useTempDir()
  const team = (dir: string): Promise<TeamDatabase> => postgres.teamDatabase(dir)

  /** A fresh team and the lead's project of `count` generated submissions, published. */
  async function published(count = 40): Promise<{ dir: string; t: TeamDatabase; lead: string }> {
    const dir = tempDir()
    const t = await team(dir)
    const lead = await importedProject(dir, 'lead.winnow', count)
    await t.publish(lead)
    return { dir, t, lead }
  }

  /** The lead's triage queue of the first day and an audit of `n`, shared before members join. */
  async function shareQueueAndAudit(t: TeamDatabase, lead: string, n: number): Promise<void> {
    const leadDb = openProject(lead)
    const day = leadDb
      .prepare("SELECT strftime('%Y-%m-%d', min(submitted_at), 'unixepoch') FROM annotations")
      .pluck()
      .get() as string
    startQueue(leadDb, { from: day, to: day, share: 1, seed: 1, author: t.lead })
    drawAudit(leadDb, { name: 'spot', filter: {}, n, seed: 1, author: t.lead })
    leadDb.close()
    await ok('team', 'sync', '--db', lead)
  }

  function ratings(path: string): { id: number; rating: number | null }[] {
    const db = openProject(path, { readonly: true })
    try {
      return db.prepare('SELECT id, rating FROM annotations ORDER BY id').all() as {
        id: number
        rating: number | null
      }[]
    } finally {
      db.close()
    }
  }

  function changeSetCount(path: string): number {
    const db = openProject(path, { readonly: true })
    try {
      return db.prepare('SELECT count(*) FROM change_sets').pluck().get() as number
    } finally {
      db.close()
    }
  }

  /**
   * Triage marks, audit verdicts and settings as every replica must hold them: queues and audits
   * numbered in the order of the change sets that made them (local ids differ).
   */
  function shared(path: string): { marks: unknown[]; verdicts: unknown[]; settings: unknown[] } {
    const db = openProject(path, { readonly: true })
    try {
      const order = (table: string): string =>
        `(SELECT count(*) FROM ${table} y JOIN change_sets cy ON cy.id = y.change_set_id
          WHERE cy.created_at <= (SELECT created_at FROM change_sets WHERE id = x.change_set_id))`
      return {
        marks: db
          .prepare(
            `SELECT ${order('triage_queues')} AS queue, m.mark, m.note
             FROM triage_marks m JOIN triage_queues x ON x.id = m.queue_id
             ORDER BY queue, m.annotation_id`,
          )
          .all(),
        verdicts: db
          .prepare(
            `SELECT ${order('audits')} AS audit, i.annotation_id, i.verdict, i.note, i.position
             FROM audit_items i JOIN audits x ON x.id = i.audit_id
             WHERE i.verdict IS NOT NULL ORDER BY audit, i.annotation_id`,
          )
          .all(),
        settings: db.prepare('SELECT key, value FROM settings ORDER BY key').all(),
      }
    } finally {
      db.close()
    }
  }

  /** The rating history as every replica must hold it: rows and times, without local ids. */
  function ratingHistory(path: string): unknown[][] {
    const db = openProject(path, { readonly: true })
    try {
      return [
        db
          .prepare(
            `SELECT worker_id, value, effective_from, recorded_at, note FROM worker_ratings
             ORDER BY recorded_at, worker_id, effective_from`,
          )
          .all(),
        db
          .prepare(
            `SELECT annotation_id, value, recorded_at, note FROM item_ratings
             ORDER BY recorded_at, annotation_id`,
          )
          .all(),
        db
          .prepare(
            `SELECT r.target, r.retracted, r.recorded_at, coalesce(w.worker_id, i.annotation_id) AS what,
               coalesce(w.recorded_at, i.recorded_at) AS rated_at
             FROM rating_retractions r
             LEFT JOIN worker_ratings w ON r.target = 'worker' AND w.id = r.rating_id
             LEFT JOIN item_ratings i ON r.target = 'item' AND i.id = r.rating_id
             ORDER BY r.recorded_at, what, rated_at`,
          )
          .all(),
        db
          .prepare('SELECT kind, created_at, description FROM change_sets ORDER BY created_at')
          .all(),
      ]
    } finally {
      db.close()
    }
  }

  it('publishes a project, joins a replica, and carries ratings and reverts both ways', async () => {
    const dir = tempDir()
    const t = await team(dir)
    const lead = await importedProject(dir, 'lead.winnow', 40)
    expect(await t.publish(lead)).toEqual({
      server: t.url(t.lead),
      member: t.lead,
      role: 'lead',
      changeSets: 1,
      submissions: 40,
    })

    await t.addMember(lead, 'rev1', 'reviewer')
    const replica = join(dir, 'rev1.winnow')
    const joined = await ok(
      'team',
      'join',
      '--server',
      t.url('rev1'),
      '--db',
      replica,
      '--name',
      'rev1',
    )
    expect(joined).toMatchObject({ changeSets: 1, seq: 1, submissions: 40 })
    expect(joined.annotations).toBeGreaterThan(40)
    const before = ratings(lead)
    expect(ratings(replica)).toEqual(before)

    const submission = String(Math.floor((before[0]?.id ?? 0) / 16))
    await ok('rate', '--db', replica, '--submission', submission, '--rating', '-2')
    expect(await ok('team', 'status', '--db', replica)).toMatchObject({
      member: 'rev1',
      role: 'reviewer',
      pending: 1,
      seq: 1,
      serverSeq: 1,
    })
    expect(await ok('team', 'sync', '--db', replica)).toEqual({ pushed: 1, pulled: 0, seq: 2 })
    expect(await ok('team', 'sync', '--db', lead)).toEqual({ pushed: 0, pulled: 1, seq: 2 })
    expect(ratings(lead)).toEqual(ratings(replica))
    expect(ratings(lead)).not.toEqual(before)

    // The lead reverts the reviewer's rating; the revert travels back.
    const history = await ok('history', '--db', lead)
    const reviewerChange = (history.changeSets as { id: number; kind: string }[]).find(
      (c) => c.kind === 'manual',
    )
    expect(reviewerChange).toBeDefined()
    await ok('revert', String(reviewerChange?.id), '--db', lead)
    expect(await ok('team', 'sync', '--db', lead)).toEqual({ pushed: 1, pulled: 0, seq: 3 })
    expect(await ok('team', 'sync', '--db', replica)).toEqual({ pushed: 0, pulled: 1, seq: 3 })
    expect(ratings(replica)).toEqual(before)
    expect(ratings(lead)).toEqual(before)
    expect(ratingHistory(replica)).toEqual(ratingHistory(lead))
  }, 60_000)

  it('joins a replica whose summary of annotations is counted once, exact, and kept by its triggers after', async () => {
    const { t, lead } = await published(120)
    const replica = await t.join(lead, 'counter1')
    const summary = (path: string) => {
      const db = openProject(path, { readonly: true })
      try {
        return {
          // Counted in one pass at the end of the join: no row of the log per annotation written.
          moves: db.prepare('SELECT count(*) FROM annotation_count_moves').pluck().get(),
          counts: db
            .prepare(
              `SELECT worker_id, dimension, IFNULL(rating, 9e999) AS r, flags, sum(n) AS n FROM (
                 SELECT worker_id, dimension, rating, flags, n FROM annotation_counts
                 UNION ALL SELECT worker_id, dimension, rating, flags, n FROM annotation_count_moves)
               GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0 ORDER BY 1, 2, 3, 4`,
            )
            .all(),
          plain: db
            .prepare(
              `SELECT worker_id, dimension, IFNULL(rating, 9e999) AS r, flags, count(*) AS n
               FROM annotations GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
            )
            .all(),
          // The summary of submissions by day, counted at the end of the join as well.
          submissionMoves: db.prepare('SELECT count(*) FROM submission_count_moves').pluck().get(),
          days: db.prepare('SELECT day, n FROM submission_days ORDER BY day').all(),
          plainDays: db
            .prepare(
              `SELECT submitted_at / 86400 AS day, count(*) AS n FROM submissions
               WHERE submitted_at IS NOT NULL GROUP BY 1 ORDER BY 1`,
            )
            .all(),
          journal: db.pragma('journal_mode', { simple: true }),
          brokenKeys: db.pragma('foreign_key_check'),
          // Every index agrees with its table: those on the rating are built after the ratings.
          integrity: db.pragma('integrity_check', { simple: true }),
        }
      } finally {
        db.close()
      }
    }
    const joined = summary(replica)
    expect(joined.moves).toBe(0)
    expect(joined.counts).toEqual(joined.plain)
    expect(joined.counts.length).toBeGreaterThan(0)
    expect(joined.submissionMoves).toBe(0)
    expect(joined.days).toEqual(joined.plainDays)
    expect(joined.days.length).toBeGreaterThan(0)
    expect(joined.journal).toBe('wal')
    expect(joined.brokenKeys).toEqual([])
    expect(joined.integrity).toBe('ok')
    // The summary's triggers are back: a rating on the replica keeps it exact.
    await ok('rate', '--db', replica, '--submission', '3', '--rating', '-2')
    const rated = summary(replica)
    expect(rated.moves).toBeGreaterThan(0)
    expect(rated.counts).toEqual(rated.plain)
    expect(rated.counts).not.toEqual(joined.counts)
  }, 60_000)

  it('writes a pulled worker rating as the local one is written, and recomputes own work only when the log reordered it', async () => {
    const { t, lead } = await published(80)
    const replica = await t.join(lead, 'puller1')
    const probe = openProject(lead, { readonly: true })
    const worker = probe
      .prepare(
        `SELECT w.external_id FROM annotations a JOIN workers w ON w.id = a.worker_id
         GROUP BY a.worker_id ORDER BY count(*) DESC LIMIT 1`,
      )
      .pluck()
      .get() as string
    // From the day of the worker's first annotation: later than the ratings the import made.
    const first = probe
      .prepare(
        `SELECT min(a.submitted_at) FROM annotations a JOIN workers w ON w.id = a.worker_id
         WHERE w.external_id = ?`,
      )
      .pluck()
      .get(worker) as number
    probe.close()
    const from = new Date(first * 1000).toISOString().slice(0, 10)
    const rate = (path: string, rating: string) =>
      ok('rate', '--db', path, '--worker', worker, '--rating', rating, '--from', from)
    /** Syncs in this process: how many annotations the pull worked out again from scratch. */
    const syncCounting = async (path: string): Promise<number> => {
      const db = openProject(path)
      try {
        await syncTeam(db)
        return db.prepare('SELECT count(*) FROM temp.rating_selection').pluck().get() as number
      } finally {
        db.close()
      }
    }
    /** The ratings of the worker's timeline-rated annotations, how many of each. */
    const workerRatings = (path: string): { rating: number | null; n: number }[] => {
      const db = openProject(path, { readonly: true })
      try {
        return db
          .prepare(
            `SELECT a.rating, count(*) AS n FROM annotations a JOIN workers w ON w.id = a.worker_id
             WHERE w.external_id = ? AND a.rating_source != 2 GROUP BY 1 ORDER BY 1`,
          )
          .all(worker) as { rating: number | null; n: number }[]
      } finally {
        db.close()
      }
    }
    const consistent = (path: string): number => {
      const db = openProject(path)
      try {
        return db.transaction(() => recomputeAll(db)).immediate()
      } finally {
        db.close()
      }
    }

    // One member's rating: its own copy placed by the log is not worked out again, and the other
    // member writes it through the pieces of the timeline it changed.
    await rate(replica, '-2')
    expect(await syncCounting(replica)).toBe(0)
    expect(await syncCounting(lead)).toBe(0)
    expect(ratings(lead)).toEqual(ratings(replica))
    expect(workerRatings(lead).map((r) => r.rating)).toContain(-2)

    // The lead rates first but pushes second: the log puts the lead's rating after the reviewer's,
    // so the lead's replica works its rating out again, and the lead's rating stands on both.
    await rate(lead, '1')
    await rate(replica, '3')
    expect(await syncCounting(replica)).toBe(0)
    expect(await syncCounting(lead)).toBeGreaterThan(0)
    await syncCounting(replica)
    expect(ratings(lead)).toEqual(ratings(replica))
    expect(workerRatings(lead)).toEqual(workerRatings(replica))
    expect(workerRatings(lead).map((r) => r.rating)).toContain(1)
    expect(workerRatings(lead).map((r) => r.rating)).not.toContain(3)
    expect(consistent(lead)).toBe(0)
    expect(consistent(replica)).toBe(0)
  }, 60_000)

  it('replays a history of worker ratings, reverts and reverts of reverts on a joining replica', async () => {
    const dir = tempDir()
    const t = await team(dir)
    const lead = await importedProject(dir, 'lead.winnow', 40)
    const first = String(ratings(lead)[0]?.id)
    const db = openProject(lead, { readonly: true })
    const worker = db
      .prepare('SELECT external_id FROM workers ORDER BY id LIMIT 1')
      .pluck()
      .get() as string
    db.close()
    await ok('rate', '--db', lead, '--worker', worker, '--rating', '-2', '--from', '2000-01-01')
    await ok(
      'rate',
      '--db',
      lead,
      '--submission',
      String(Math.floor(Number(first) / 16)),
      '--rating',
      '-1',
    )
    const history = (await ok('history', '--db', lead)).changeSets as { id: number }[]
    const [newest] = history
    await ok('revert', String(newest?.id), '--db', lead)
    await ok('revert', String((newest?.id ?? 0) + 1), '--db', lead)
    await t.publish(lead)
    await t.addMember(lead, 'rev8', 'reviewer')
    const replica = join(dir, 'rev8.winnow')
    expect(
      await ok('team', 'join', '--server', t.url('rev8'), '--db', replica, '--name', 'rev8'),
    ).toMatchObject({ changeSets: 5, seq: 5 })
    expect(ratings(replica)).toEqual(ratings(lead))
    expect(ratingHistory(replica)).toEqual(ratingHistory(lead))
    expect(ratings(replica).find((r) => String(r.id) === first)?.rating).toBe(-1)
  }, 60_000)

  it('brings three members rating, triaging and judging at once for a minute to one state', async () => {
    const { t, lead } = await published(10)
    // The day's queue and an audit, shared before the members join.
    await shareQueueAndAudit(t, lead, 20)
    const members = ['m1', 'm2', 'm3']
    const replicas: string[] = []
    for (const name of members) replicas.push(await t.join(lead, name))
    const runs = await Promise.all(
      replicas.map((replica, i) => {
        const child = spawn(
          process.execPath,
          [
            '--import',
            'tsx',
            join(root, 'tests/team/memberLoop.ts'),
            replica,
            '60',
            String(i + 1),
            members[i] as string,
          ],
          { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], env: process.env },
        )
        let out = ''
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
        return new Promise<{ code: number | null; out: string }>((resolve) =>
          child.once('exit', (code) => resolve({ code, out })),
        )
      }),
    )
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0])
    for (const replica of [...replicas, lead]) await ok('team', 'sync', '--db', replica)
    // Nothing lost, nothing doubled: the log holds each member's every change set once.
    const perMember = await postgres.server.admin$(
      'SELECT member, count(*)::int AS n FROM winnow.change_sets GROUP BY member ORDER BY member',
      t.db,
    )
    const made = runs.map((r) => (JSON.parse(r.out) as { made: number }).made)
    expect(made.every((n) => n > 0)).toBe(true)
    expect(perMember.rows).toEqual([
      { member: t.lead, n: 3 },
      ...members.map((member, i) => ({ member, n: made[i] })),
    ])
    const total = 3 + made.reduce((a, b) => a + b, 0)
    for (const replica of replicas) {
      expect(changeSetCount(replica)).toBe(total)
      expect(ratings(replica)).toEqual(ratings(lead))
      expect(ratingHistory(replica)).toEqual(ratingHistory(lead))
      expect(shared(replica)).toEqual(shared(lead))
    }
  }, 240_000)

  it('orders two ratings of one annotation by their place in the log on every replica', async () => {
    const { t, lead } = await published()
    const replica = await t.join(lead, 'rev2')
    const annotation = String(ratings(lead)[0]?.id)

    // Both rate offline; the lead's rating is made first but pushed last, so it stands.
    await ok('rate', '--db', lead, '--annotation', annotation, '--rating', '1')
    await ok('rate', '--db', replica, '--annotation', annotation, '--rating', '2')
    await ok('team', 'sync', '--db', replica)
    await ok('team', 'sync', '--db', lead)
    await ok('team', 'sync', '--db', replica)
    const onLead = ratings(lead)
    expect(onLead.find((r) => String(r.id) === annotation)?.rating).toBe(1)
    expect(ratings(replica)).toEqual(onLead)
  }, 60_000)

  it('orders two marks and two verdicts of one item by their place in the log on every replica', async () => {
    const { t, lead } = await published(10)
    await shareQueueAndAudit(t, lead, 3)
    const replica = await t.join(lead, 'rev12')
    const work = (path: string, author: string, mark: 'good' | 'bad', verdict: 'yes' | 'no') => {
      const db = openProject(path)
      try {
        const queueId = db.prepare('SELECT id FROM triage_queues').pluck().get() as number
        const annotationId = db
          .prepare(
            'SELECT min(id) FROM annotations WHERE id >> 4 IN (SELECT submission_id FROM triage_items)',
          )
          .pluck()
          .get() as number
        markAnnotation(db, { queueId, annotationId, mark, author })
        const auditId = db.prepare('SELECT id FROM audits').pluck().get() as number
        const item = db
          .prepare('SELECT annotation_id FROM audit_items WHERE position = 1')
          .pluck()
          .get() as number
        judge(db, { auditId, annotationId: item, verdict, author })
      } finally {
        db.close()
      }
    }
    // The reviewer's marks are made first but pushed last, so they stand everywhere.
    work(replica, 'rev12', 'bad', 'no')
    work(lead, t.lead, 'good', 'yes')
    await ok('team', 'sync', '--db', lead)
    await ok('team', 'sync', '--db', replica)
    await ok('team', 'sync', '--db', lead)
    expect(shared(replica)).toEqual(shared(lead))
    expect(shared(lead).marks).toEqual([{ queue: 1, mark: 'bad', note: '' }])
    expect(shared(lead).verdicts).toMatchObject([{ verdict: 'no' }])
  }, 60_000)

  it('splits a triage queue between three reviewers, so no item is reviewed twice', async () => {
    const { t, lead } = await published(30)
    const leadDb = openProject(lead)
    const [from, to] = leadDb
      .prepare(
        `SELECT strftime('%Y-%m-%d', min(submitted_at), 'unixepoch'),
           strftime('%Y-%m-%d', max(submitted_at), 'unixepoch') FROM annotations`,
      )
      .raw()
      .get() as [string, string]
    const items = startQueue(leadDb, { from, to, share: 1, seed: 1, author: t.lead }).items.length
    leadDb.close()
    await ok('team', 'sync', '--db', lead)
    const members = ['c1', 'c2', 'c3']
    const replicas: string[] = []
    for (const name of members) replicas.push(await t.join(lead, name))
    // All three claim at once, more than there is to share.
    const count = Math.ceil(items / 3) + 1
    const claims = await Promise.all(
      replicas.map((replica) => ok('team', 'claim', '--db', replica, '--count', String(count))),
    )
    const claimed = claims.map((c) => c.claimed as number[])
    const all = claimed.flat()
    expect(new Set(all).size).toBe(all.length)
    expect(all.sort((a, b) => a - b)).toEqual(Array.from({ length: items }, (_, i) => i + 1))

    // Each reviews its own items; another's item is refused, and nothing is written (this
    // replica has heard of the other claims: before, it would refuse it as not claimed).
    await ok('team', 'sync', '--db', replicas[0] as string)
    expect(claimed.every((c) => c.length > 0)).toBe(true)
    const [mine, theirs] = [claimed[0]?.[0] ?? 0, claimed[1]?.[0] ?? 0]
    const db = openProject(replicas[0] as string)
    try {
      markReviewed(db, { queueId: 1, position: mine, reviewed: true, author: 'c1' })
      const before = changeSetCount(replicas[0] as string)
      expect(() =>
        markReviewed(db, { queueId: 1, position: theirs, reviewed: true, author: 'c1' }),
      ).toThrow(`Item ${theirs} of triage queue 1 is c2's to review`)
      expect(changeSetCount(replicas[0] as string)).toBe(before)
    } finally {
      db.close()
    }
    for (const replica of replicas) await ok('team', 'sync', '--db', replica)
    await ok('team', 'sync', '--db', lead)
    // Everyone sees everyone's progress.
    const progress = claimed.map((c, i) => ({
      member: members[i],
      claimed: c.length,
      reviewed: i === 0 ? 1 : 0,
    }))
    for (const replica of [lead, ...replicas]) {
      const view = openProject(replica, { readonly: true })
      try {
        expect(triageQueue(view, 1).members).toEqual(progress)
      } finally {
        view.close()
      }
    }
  }, 90_000)

  it('lets a viewer export a release that names the members whose change sets it includes, pushing nothing', async () => {
    const { dir, t, lead } = await published(10)
    await t.addMember(lead, 'rev13', 'reviewer')
    await t.addMember(lead, 'view13', 'viewer')
    const reviewer = join(dir, 'rev13.winnow')
    await ok('team', 'join', '--server', t.url('rev13'), '--db', reviewer, '--name', 'rev13')
    await ok(
      'rate',
      '--db',
      reviewer,
      '--annotation',
      String(ratings(lead)[0]?.id),
      '--rating',
      '2',
    )
    await ok('team', 'sync', '--db', reviewer)
    const viewer = join(dir, 'view13.winnow')
    await ok('team', 'join', '--server', t.url('view13'), '--db', viewer, '--name', 'view13')
    const logged = async (): Promise<unknown[]> =>
      (await postgres.server.admin$('SELECT count(*)::int AS n FROM winnow.change_sets', t.db))
        .rows as unknown[]
    const before = await logged()
    const release = await ok(
      'export',
      '--db',
      viewer,
      '--out',
      join(dir, 'release'),
      '--card',
      'creator=Team Winnow',
      '--card',
      'url=https://data.winnow-team.org/release',
    )
    expect(release.datasheet).toContain(
      `- Team members whose change sets the release includes: ${[t.lead, 'rev13'].sort().join(', ')}.`,
    )
    expect(await ok('team', 'status', '--db', viewer)).toMatchObject({ role: 'viewer', pending: 0 })
    expect(await logged()).toEqual(before)
  }, 60_000)

  it("carries a lead's policy run, with its script, to a replica", async () => {
    const { t, lead } = await published(60)
    const replica = await t.join(lead, 'rev7')
    const before = ratings(lead)
    await ok('policy', 'run', join(root, 'policies', 'glucose-cleanup.ts'), '--db', lead)
    expect(ratings(lead)).not.toEqual(before)
    expect(await ok('team', 'sync', '--db', lead)).toEqual({ pushed: 1, pulled: 0, seq: 2 })
    expect(await ok('team', 'sync', '--db', replica)).toEqual({ pushed: 0, pulled: 1, seq: 2 })
    expect(ratings(replica)).toEqual(ratings(lead))
    const runs = (path: string): unknown[] => {
      const db = openProject(path, { readonly: true })
      try {
        return db.prepare('SELECT name, sha256, params FROM policy_runs').all()
      } finally {
        db.close()
      }
    }
    expect(runs(replica)).toEqual(runs(lead))
    expect(runs(replica)).toHaveLength(1)
  }, 60_000)

  it("refuses a viewer's change set in the server itself, and a reviewer's policy run", async () => {
    const { dir, t, lead } = await published(5)
    const viewerPassword = await t.addMember(lead, 'view1', 'viewer')
    const reviewerPassword = await t.addMember(lead, 'rev3', 'reviewer')

    const insertAs = (user: string, password: string, kind: string): Promise<unknown> =>
      forgeChangeSet(t.url(user, password), kind, {
        format: 1,
        body: { strings: [], workers: [], items: [], retractions: [] },
      })
    const viewer = await insertAs('view1', viewerPassword, 'manual')
    expect(viewer).toMatchObject({ code: '42501' })
    expect(String(viewer)).toMatch(/permission denied for table change_sets/)
    const reviewerPolicy = await insertAs('rev3', reviewerPassword, 'policy')
    expect(reviewerPolicy).toMatchObject({ code: '42501' })
    expect(String(reviewerPolicy)).toMatch(/row-level security/)
    // A reviewer's rating goes in, under the reviewer's own name whatever the client says.
    expect(await insertAs('rev3', reviewerPassword, 'manual')).toBeNull()
    const members = await postgres.server.admin$(
      `SELECT member FROM winnow.change_sets WHERE description = 'forged'`,
      t.db,
    )
    expect(members.rows).toEqual([{ member: 'rev3' }])

    // Through the app a viewer pulls and pushes nothing: its own writes stay in its file.
    const replica = join(dir, 'view1.winnow')
    await ok('team', 'join', '--server', t.url('view1'), '--db', replica, '--name', 'view1')
    await ok(
      'rate',
      '--db',
      replica,
      '--annotation',
      String(ratings(replica)[0]?.id),
      '--rating',
      '1',
    )
    expect(await ok('team', 'sync', '--db', replica)).toEqual({ pushed: 0, pulled: 0, seq: 2 })
    expect(await ok('team', 'status', '--db', replica)).toMatchObject({
      role: 'viewer',
      pending: 1,
      serverSeq: 2,
    })
  }, 60_000)

  it('keeps the password out of every file it writes', async () => {
    const dir = tempDir()
    const t = await team(dir)
    writeFileSync(process.env.PGPASSFILE as string, '')
    const lead = await importedProject(dir, 'lead.winnow', 40)
    const withPassword = t.url(t.lead, t.leadPassword)
    const published = await cli(
      'team',
      'init',
      '--db',
      lead,
      '--server',
      withPassword,
      '--name',
      t.lead,
      '--json',
    )
    expect(published.code, published.stderr).toBe(0)
    expect(published.stdout).not.toContain(t.leadPassword)
    process.env.PGPASSWORD = t.leadPassword
    const added = await ok('team', 'member', 'add', 'rev4', '--role', 'reviewer', '--db', lead)
    delete process.env.PGPASSWORD
    const replica = join(dir, 'rev4.winnow')
    const joinUrl = t.url('rev4', added.password as string)
    await ok('team', 'join', '--server', joinUrl, '--db', replica, '--name', 'rev4')
    await ok(
      'rate',
      '--db',
      replica,
      '--annotation',
      String(ratings(replica)[0]?.id),
      '--rating',
      '1',
    )
    const refused = await cli('team', 'sync', '--db', replica, '--json')
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/No password for .*: set PGPASSWORD, or add a line/)
    for (const secret of [t.leadPassword, added.password as string]) {
      expect(refused.stderr).not.toContain(secret)
      for (const name of readdirSync(dir)) {
        if (name === 'pgpass') continue
        expect(readFileSync(join(dir, name)).includes(secret), `${name} holds a password`).toBe(
          false,
        )
      }
    }
  }, 60_000)

  it('keeps working offline and converges when the server is back', async () => {
    const { t, lead } = await published(10)
    const replica = await t.join(lead, 'rev5')
    const annotation = String(ratings(replica)[0]?.id)

    await postgres.server.stop()
    try {
      await ok('rate', '--db', replica, '--annotation', annotation, '--rating', '-2')
      expect(await ok('team', 'status', '--db', replica)).toMatchObject({
        pending: 1,
        seq: 1,
        serverSeq: null,
      })
      const offline = await cli('team', 'sync', '--db', replica, '--json')
      expect(offline.code).toBe(1)
      expect(offline.stderr).toMatch(/cannot be reached/)
    } finally {
      await postgres.server.start()
    }
    expect(await ok('team', 'status', '--db', replica)).toMatchObject({ pending: 1, serverSeq: 1 })
    expect(await ok('team', 'sync', '--db', replica)).toEqual({ pushed: 1, pulled: 0, seq: 2 })
    expect(await ok('team', 'sync', '--db', lead)).toEqual({ pushed: 0, pulled: 1, seq: 2 })
    expect(ratings(lead)).toEqual(ratings(replica))
    expect(ratings(lead).find((r) => String(r.id) === annotation)?.rating).toBe(-2)
  }, 60_000)

  it('lets members triage and judge through a server outage, then brings them to one state', async () => {
    const { t, lead } = await published(10)
    await shareQueueAndAudit(t, lead, 4)
    const replicas: string[] = []
    for (const name of ['off1', 'off2']) replicas.push(await t.join(lead, name))
    const work = (path: string, author: string, mark: 'good' | 'bad', verdict: 'yes' | 'no') => {
      const db = openProject(path)
      try {
        const annotations = db
          .prepare(
            `SELECT a.id FROM annotations a JOIN triage_items i ON i.submission_id = a.id >> 4
             ORDER BY a.id LIMIT 2`,
          )
          .pluck()
          .all() as number[]
        for (const annotationId of annotations)
          markAnnotation(db, { queueId: 1, annotationId, mark, author })
        const items = db
          .prepare('SELECT annotation_id FROM audit_items ORDER BY position LIMIT 2')
          .pluck()
          .all() as number[]
        for (const annotationId of items) judge(db, { auditId: 1, annotationId, verdict, author })
      } finally {
        db.close()
      }
    }

    await postgres.server.stop()
    try {
      work(replicas[0] as string, 'off1', 'good', 'yes')
      work(replicas[1] as string, 'off2', 'bad', 'no')
      work(lead, t.lead, 'good', 'no')
      for (const replica of [...replicas, lead]) {
        expect(await ok('team', 'status', '--db', replica)).toMatchObject({
          pending: 4,
          serverSeq: null,
        })
        const offline = await cli('team', 'sync', '--db', replica, '--json')
        expect(offline.code).toBe(1)
        expect(offline.stderr).toMatch(/cannot be reached/)
      }
    } finally {
      await postgres.server.start()
    }
    for (const replica of [...replicas, lead, ...replicas])
      await ok('team', 'sync', '--db', replica)
    const logged = await postgres.server.admin$(
      'SELECT count(*)::int AS n FROM winnow.change_sets',
      t.db,
    )
    expect(logged.rows).toEqual([{ n: 3 + 3 * 4 }])
    for (const replica of replicas) {
      expect(changeSetCount(replica)).toBe(3 + 3 * 4)
      expect(shared(replica)).toEqual(shared(lead))
    }
  }, 90_000)

  it('loses and doubles nothing when a member is killed in the middle of a push', async () => {
    const { t, lead } = await published(10)
    const replica = await t.join(lead, 'rev6')
    const ids = ratings(replica).map((r) => String(r.id))
    await ok('rate', '--db', replica, '--annotation', ids[0] as string, '--rating', '-2')
    await ok('rate', '--db', replica, '--annotation', ids[1] as string, '--rating', '-1')

    // Another transaction holds the log's head, so the push waits inside its transaction,
    // after sending its change sets: it is killed there.
    await t.killSyncInPush('rev6', replica)

    expect(await ok('team', 'status', '--db', replica)).toMatchObject({ pending: 2 })
    expect(await ok('team', 'sync', '--db', replica)).toEqual({ pushed: 2, pulled: 0, seq: 3 })

    // Killed after the server committed but before the project recorded the places: the next
    // push sends the same global ids, and the log keeps one of each.
    const db = openProject(replica)
    db.exec('DELETE FROM team_change_sets WHERE seq > 1; UPDATE team_state SET seq = 1')
    db.close()
    expect(await ok('team', 'status', '--db', replica)).toMatchObject({ pending: 2, seq: 1 })
    expect(await ok('team', 'sync', '--db', replica)).toEqual({ pushed: 2, pulled: 0, seq: 3 })
    const logged = await postgres.server.admin$(
      'SELECT count(*)::int AS n FROM winnow.change_sets',
      t.db,
    )
    expect(logged.rows).toEqual([{ n: 3 }])
    expect(await ok('team', 'sync', '--db', lead)).toEqual({ pushed: 0, pulled: 2, seq: 3 })
    expect(ratings(lead)).toEqual(ratings(replica))
  }, 90_000)

  it('lists and removes members; a removed member is refused', async () => {
    const { t, lead } = await published(5)
    const replica = await t.join(lead, 'rev9')
    expect(await ok('team', 'member', 'list', '--db', lead)).toEqual([
      { name: t.lead, role: 'lead' },
      { name: 'rev9', role: 'reviewer' },
    ])
    expect(await ok('team', 'member', 'remove', 'rev9', '--db', lead)).toEqual({
      member: 'rev9',
      removed: true,
    })
    expect(await ok('team', 'member', 'list', '--db', lead)).toEqual([
      { name: t.lead, role: 'lead' },
    ])
    const refused = await cli('team', 'sync', '--db', replica, '--json')
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/rev9 is not a member of the team/)
  }, 60_000)

  it("does not push a reviewer's import", async () => {
    const { dir, t, lead } = await published(5)
    const replica = await t.join(lead, 'rev10')
    await ok('import', releaseCsv(dir, 'more.csv', 5, 99), '--db', replica)
    // Imports are a lead's to share: the server itself refuses a reviewer's rows.
    const pushed = await cli('team', 'sync', '--db', replica, '--json')
    expect(pushed.code).toBe(1)
    expect(pushed.stderr).toMatch(/only a lead's imports are shared/)
    const asReviewer = new pg.Client({ connectionString: t.url('rev10') })
    await asReviewer.connect()
    await expect(
      asReviewer.query(`INSERT INTO winnow.workers VALUES (1, 'someone')`),
    ).rejects.toThrow(/permission denied/)
    await asReviewer.end()
    expect(
      await postgres.server.admin$('SELECT count(*)::int AS n FROM winnow.submissions', t.db),
    ).toMatchObject({ rows: [{ n: 5 }] })
    const logged = await postgres.server.admin$(
      'SELECT count(*)::int AS n FROM winnow.change_sets',
      t.db,
    )
    expect(logged.rows).toEqual([{ n: 1 }])
  }, 60_000)

  it('carries triage queues and marks, audits and verdicts, settings and their undos both ways', async () => {
    const dir = tempDir()
    const t = await team(dir)
    const lead = await importedProject(dir, 'lead.winnow', 10)
    const first = ratings(lead)[0]?.id ?? 0
    // A setting, a triage queue with a mark (undone, marked again), an audit with a verdict.
    const local = (path: string, author: string, mark: 'good' | 'bad'): void => {
      const db = openProject(path)
      try {
        const day = db
          .prepare("SELECT strftime('%Y-%m-%d', min(submitted_at), 'unixepoch') FROM annotations")
          .pluck()
          .get() as string
        const queue = startQueue(db, { from: day, to: day, share: 1, seed: 1, author })
        const annotationId = queue.items[0]?.annotationIds[0] ?? 0
        markAnnotation(db, { queueId: queue.id, annotationId, mark: 'needs-work', author })
        undo(db, author)
        markAnnotation(db, { queueId: queue.id, annotationId, mark, author })
        const audit = drawAudit(db, { name: 'spot', filter: {}, n: 2, seed: 1, author })
        const item = audit.items[0]?.annotationId ?? 0
        judge(db, { auditId: audit.result.id, annotationId: item, verdict: 'yes', author })
      } finally {
        db.close()
      }
    }
    const leadDb = openProject(lead)
    saveReleaseSettings(leadDb, lead, { tierMap: [{ rating: 3, tier: 1 }] }, t.lead)
    leadDb.close()
    local(lead, t.lead, 'good')
    expect(await t.publish(lead)).toMatchObject({ changeSets: changeSetCount(lead) })

    const replica = await t.join(lead, 'rev11')
    expect(shared(replica)).toEqual(shared(lead))
    expect(shared(replica).marks).toEqual([{ queue: 1, mark: 'good', note: '' }])
    // The join set indexes and triggers aside while the bulk data came, and put them back.
    const schema = (path: string): unknown[] => {
      const db = openProject(path, { readonly: true })
      try {
        return db
          .prepare(
            `SELECT type, name, sql FROM sqlite_schema WHERE type IN ('index', 'trigger')
             AND name NOT LIKE 'sqlite_%' AND tbl_name NOT LIKE 'team_%' ORDER BY name`,
          )
          .all()
      } finally {
        db.close()
      }
    }
    expect(schema(replica)).toEqual(schema(lead))

    // On the replica: a queue of its own, marks and an audit, then a rating; all of it travels,
    // and the lead's replica ends as the reviewer's.
    local(replica, 'rev11', 'bad')
    await ok('rate', '--db', replica, '--annotation', String(first), '--rating', '1')
    const pending = changeSetCount(replica) - changeSetCount(lead)
    expect(await ok('team', 'status', '--db', replica)).toMatchObject({ pending })
    expect(await ok('team', 'sync', '--db', replica)).toMatchObject({ pushed: pending, pulled: 0 })
    expect(await ok('team', 'sync', '--db', lead)).toMatchObject({ pushed: 0, pulled: pending })
    expect(ratings(lead)).toEqual(ratings(replica))
    expect(shared(lead)).toEqual(shared(replica))
    expect(shared(lead).marks).toEqual([
      { queue: 1, mark: 'good', note: '' },
      { queue: 2, mark: 'bad', note: '' },
    ])
    expect(shared(lead).verdicts).toHaveLength(2)
    // One global id: the log's UUID of each change set is its own uid on every replica.
    const logged = await postgres.server.admin$(
      `SELECT replace(uid::text, '-', '') AS uid FROM winnow.change_sets ORDER BY seq`,
      t.db,
    )
    const uids = (path: string): string[] => {
      const db = openProject(path, { readonly: true })
      try {
        return db
          .prepare('SELECT uid FROM change_sets ORDER BY created_at')
          .pluck()
          .all() as string[]
      } finally {
        db.close()
      }
    }
    expect(uids(lead)).toEqual(logged.rows.map((r: { uid: string }) => r.uid))
    expect(uids(replica)).toEqual(uids(lead))
  }, 60_000)

  it('refuses a server set up by a newer Winnow and pushes nothing', async () => {
    const { t, lead } = await published(5)
    await ok('rate', '--db', lead, '--annotation', String(ratings(lead)[0]?.id), '--rating', '1')
    await postgres.server.admin$('UPDATE winnow.schema_version SET version = 99', t.db)
    const refused = await cli('team', 'sync', '--db', lead, '--json')
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(
      `newer Winnow (server schema 99; this version knows ${SERVER_SCHEMA_VERSION})`,
    )
    const logged = await postgres.server.admin$(
      'SELECT count(*)::int AS n FROM winnow.change_sets',
      t.db,
    )
    expect(logged.rows).toEqual([{ n: 1 }])
    expect(await ok('team', 'status', '--db', lead)).toMatchObject({ pending: 1 })
  }, 60_000)
})
