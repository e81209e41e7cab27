import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openProject } from '../../src/main/db/connection'
import { workerActionEntries } from '../../src/main/db/queries/mturk/actions'
import { workerAssignments } from '../../src/main/db/queries/mturk/assignments'
import { hitRows } from '../../src/main/db/queries/mturk/hits'
import { seedDemo } from '../../standin/index'
import { ok } from '../helpers/cli'
import { restoreEnvAfterEach } from '../helpers/env'
import { releaseCsv } from '../helpers/glucose'
import { noPostgres } from '../helpers/postgres'
import { forgeChangeSet, usePostgres } from '../helpers/team'
import { useTempDir } from '../helpers/tmp'
import { CREDENTIALS, useStandin } from '../mturk/standin-helpers'

/**
 * What a lead does on MTurk travels to every replica: a pull's HITs and assignments with its change
 * set, and worker actions (bonuses, qualifications, messages) as done, so no other replica offers
 * to do them again.
 */
describe.skipIf(noPostgres !== null)('team mode: MTurk', () => {
  const postgres = usePostgres({ db: 'mturk', lead: 'mlead' })
  const tempDir = useTempDir()
  const standin = useStandin()
  restoreEnvAfterEach('AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_PROFILE')

  /** A published lead whose project pulled from a seeded stand-in after publishing, pushed. */
  async function pulledTeam(members: [string, string][]) {
    const dir = tempDir()
    const t = await postgres.teamDatabase(dir)
    const lead = join(dir, 'lead.winnow')
    await ok('import', releaseCsv(dir, 'first.csv', 6, 3), '--db', lead)
    await t.publish(lead)
    const replicas: Record<string, string> = {}
    for (const [name, role] of members) replicas[name] = await t.join(lead, name, role)
    const { standin: mturk } = await standin()
    const seed = seedDemo(mturk.state, { hits: 3, assignmentsPerHit: 3 })
    process.env.AWS_ACCESS_KEY_ID = CREDENTIALS.accessKeyId
    process.env.AWS_SECRET_ACCESS_KEY = CREDENTIALS.secretAccessKey
    delete process.env.AWS_PROFILE
    await ok('pull', '--all', '--db', lead, '--endpoint', mturk.url)
    await ok('team', 'sync', '--db', lead)
    return { t, lead, replicas, mturk, seed }
  }

  /** MTurk's side of a project as plain rows (local change set ids left out: they differ). */
  function mturkRows(path: string): Record<string, unknown[]> {
    const db = openProject(path, { readonly: true })
    try {
      const rows = (query: string): unknown[] => db.prepare(query).raw().all()
      return {
        hits: rows(`SELECT hit_id, hit_type_id, title, created_at, expires_at, status,
          max_assignments, signature, raw, pulled_signature FROM mturk_hits ORDER BY hit_id`),
        assignments: rows(`SELECT assignment_id, hit_id, submission_id, worker_external_id, status,
          auto_approval_at, reviewed_at FROM mturk_assignments ORDER BY assignment_id`),
        statuses: rows(`SELECT id, assignment_id, status FROM submissions
          WHERE status IS NOT NULL ORDER BY id`),
        actions: rows(`SELECT x.action, x.assignment_id, x.request, x.response, x.error,
            x.bonus_token, x.at, t.worker_external_id, c.uid
          FROM worker_actions x JOIN worker_action_targets t ON t.action_id = x.id
          JOIN change_sets c ON c.id = x.change_set_id ORDER BY x.at, t.worker_external_id`),
      }
    } finally {
      db.close()
    }
  }

  function read<T>(path: string, query: (db: ReturnType<typeof openProject>) => T): T {
    const db = openProject(path, { readonly: true })
    try {
      return query(db)
    } finally {
      db.close()
    }
  }

  it("carries a lead's pull after publishing: a joined replica holds the same HITs and assignments", async () => {
    const { lead, replicas, t } = await pulledTeam([['mrev1', 'reviewer']])
    const rev = replicas.mrev1 as string
    expect(await ok('team', 'sync', '--db', rev)).toMatchObject({ pulled: 1 })
    const leadRows = mturkRows(lead)
    expect(leadRows.hits).toHaveLength(3)
    expect(leadRows.assignments).toHaveLength(9)
    expect(mturkRows(rev)).toEqual(leadRows)
    const now = Math.floor(Date.now() / 1000)
    expect(read(rev, (db) => hitRows(db, now))).toEqual(read(lead, (db) => hitRows(db, now)))

    // A member joining later gets them from the log.
    const late = await t.join(lead, 'mlate1')
    expect(mturkRows(late)).toEqual(leadRows)
  }, 120_000)

  it('shows a bonus and a qualification a lead gave as done on the other replicas, which do not pay it again', async () => {
    const { lead, replicas, mturk, seed, t } = await pulledTeam([
      ['mlead2', 'lead'],
      ['mrev2', 'reviewer'],
    ])
    const lead2 = replicas.mlead2 as string
    const rev = replicas.mrev2 as string
    const assignment = seed.assignments[0]
    const worker = assignment?.WorkerId ?? ''
    const assignmentId = assignment?.AssignmentId ?? ''
    const typeId = seed.qualificationTypeIds[0] ?? ''
    const endpoint = ['--endpoint', mturk.url]
    const bonus = ['worker', 'bonus', '--assignment', assignmentId, '--amount', '0.50']
    expect(
      await ok(
        'worker',
        'qualify',
        '--worker',
        worker,
        '--qualification-type',
        typeId,
        '--value',
        '7',
        '--db',
        lead,
        ...endpoint,
      ),
    ).toMatchObject({ succeeded: 1 })
    expect(await ok(...bonus, '--reason', 'Careful work', '--db', lead, ...endpoint)).toMatchObject(
      { succeeded: 1 },
    )
    expect(mturk.state.bonuses).toHaveLength(1)
    expect(await ok('team', 'sync', '--db', lead)).toMatchObject({ pushed: 2 })

    for (const replica of [lead2, rev]) await ok('team', 'sync', '--db', replica)
    const leadRows = mturkRows(lead)
    expect(leadRows.actions?.map((a) => (a as unknown[])[0])).toEqual(['qualify', 'bonus'])
    for (const replica of [lead2, rev]) {
      expect(mturkRows(replica)).toEqual(leadRows)
      // The worker page lists them, and the assignment shows its bonus paid.
      expect(read(replica, (db) => workerActionEntries(db, worker).map((e) => e.action))).toEqual([
        'bonus',
        'qualify',
      ])
      expect(
        read(replica, (db) => workerAssignments(db, worker)).find(
          (a) => a.assignmentId === assignmentId,
        )?.bonusPaid,
      ).toBe('0.50')
    }

    // The same bonus asked of the second lead's replica is skipped as paid: nothing is sent.
    expect(
      await ok(...bonus, '--reason', 'Careful work', '--db', lead2, ...endpoint),
    ).toMatchObject({ succeeded: 0, skipped: 1 })
    expect(mturk.state.bonuses).toHaveLength(1)
    // Even where the replica's MTurk project id differs (so its token would), the recorded
    // payment of the same bonus keeps it from being sent again.
    const other = openProject(lead2)
    other
      .prepare(`INSERT OR REPLACE INTO settings (key, value) VALUES ('mturk.projectId', ?)`)
      .run(JSON.stringify('another-project'))
    other.close()
    expect(
      await ok(...bonus, '--reason', 'Careful work', '--db', lead2, ...endpoint),
    ).toMatchObject({ succeeded: 0, skipped: 1 })
    expect(mturk.state.bonuses).toHaveLength(1)

    // A reviewer's message to a worker travels too (worker feedback is a reviewer's work).
    expect(
      await ok(
        'worker',
        'notify',
        '--worker',
        worker,
        '--subject',
        'Thanks',
        '--message',
        'Good work',
        '--db',
        rev,
        ...endpoint,
      ),
    ).toMatchObject({ succeeded: 1 })
    expect(await ok('team', 'sync', '--db', rev)).toMatchObject({ pushed: 1 })
    await ok('team', 'sync', '--db', lead)
    expect(read(lead, (db) => workerActionEntries(db, worker).map((e) => e.action))).toEqual([
      'notify',
      'bonus',
      'qualify',
    ])

    // A member joining later gets every one of them.
    const late = await t.join(lead, 'mlate2')
    expect(mturkRows(late)).toEqual(mturkRows(lead))
  }, 150_000)

  it("lets a reviewer's worker actions in at the server and refuses a reviewer's pull and a viewer's actions", async () => {
    const dir = tempDir()
    const t = await postgres.teamDatabase(dir)
    const lead = join(dir, 'lead.winnow')
    await ok('import', releaseCsv(dir, 'first.csv', 3, 2), '--db', lead)
    await t.publish(lead)
    const reviewer = await t.addMember(lead, 'mrev3', 'reviewer')
    const viewer = await t.addMember(lead, 'mview3', 'viewer')
    const rows = { strings: [], workers: [], items: [], retractions: [] }
    const actions = { ...rows, actions: [] }
    const pulled = { ...rows, assignments: [] }

    /** Inserts an `mturk` change set as `user` with raw SQL: null when the server took it. */
    const insertAs = (user: string, password: string, payload: object): Promise<unknown> =>
      forgeChangeSet(t.url(user, password), 'mturk', { format: 5, ...payload })
    expect(await insertAs('mrev3', reviewer, { body: actions })).toBeNull()
    // A pull's change set (its assignments, or its rows as bulk data) is a lead's.
    expect(String(await insertAs('mrev3', reviewer, { body: pulled }))).toMatch(
      /row-level security/,
    )
    expect(String(await insertAs('mrev3', reviewer, { body: actions, bulk: true }))).toMatch(
      /row-level security/,
    )
    expect(String(await insertAs('mview3', viewer, { body: actions }))).toMatch(
      /permission denied for table change_sets/,
    )
  }, 60_000)
})
