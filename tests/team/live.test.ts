import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { CallName, EventName } from '../../src/shared/contract'
import type { JobProgress } from '../../src/shared/contract/jobs'
import type { TeamLiveStatus } from '../../src/shared/contract/team'
import { dispatch } from '../../src/main/api/dispatch'
import { openProject } from '../../src/main/db/connection'
import { Session } from '../../src/main/session'
import { runTask } from '../../src/main/tasks/threadTasks'
import { UserError } from '../../src/shared/contract/errors'
import { addTeamMember } from '../../src/main/team/members'
import type { TeamPasswords } from '../../src/main/team/passwords'
import { noPostgres } from '../helpers/postgres'
import { importedProject, usePostgres } from '../helpers/team'
import { useTempDir } from '../helpers/tmp'
import { serverAtSchema3, serverSchemaVersion } from '../helpers/serverSchema'

/**
 * The app's side of team mode against a real PostgreSQL server: two app sessions (as serve mode
 * makes them) on two replicas hear each other's pushes, push their own writes in the background,
 * say offline while the server is away and converge when it is back; sharing and joining through
 * the API, a join's cancel, and passwords kept where the app keeps them.
 */
// Needs a PostgreSQL server (tests/helpers/postgres.ts starts one); where none exists the suite
// skips and the helper says why.
describe.skipIf(noPostgres !== null)('team mode in the app', () => {
  const postgres = usePostgres({ db: 'live', lead: 'livelead' })
  const tempDir = useTempDir()
  const sessions: Session[] = []

  afterEach(async () => {
    for (const session of sessions.splice(0)) {
      const live = session.teamLive()
      session.close()
      await live?.stop()
    }
  })

  interface App {
    session: Session
    events: { name: EventName; payload: unknown }[]
    call(name: CallName, args?: unknown): Promise<unknown>
    status(): TeamLiveStatus | null
  }

  function app(passwords?: TeamPasswords): App {
    const events: App['events'] = []
    const session = new Session('serve', (name, payload) => events.push({ name, payload }), {
      ...(passwords ? { teamPasswords: passwords } : {}),
    })
    sessions.push(session)
    return {
      session,
      events,
      status: () => session.teamStatus(),
      async call(name, args = {}) {
        const outcome = await dispatch(name, args, { session })
        if (!outcome.ok) throw new Error(`${outcome.error.code}: ${outcome.error.message}`)
        return outcome.value
      },
    }
  }

  /** A lead's app on a project of `count` generated submissions, shared through the app. */
  async function sharedLead(dir: string, count = 20) {
    const t = await postgres.teamDatabase(dir)
    const leadPath = await importedProject(dir, 'lead.winnow', count)
    const a = app()
    a.session.open(leadPath)
    const shared = (await a.call('team.share', { server: t.url(t.lead), name: t.lead })) as {
      status: TeamLiveStatus
      submissions: number
    }
    return { t, a, leadPath, shared }
  }

  function ratingOf(path: string, annotation: number): number | null {
    const db = openProject(path, { readonly: true })
    try {
      const row = db.prepare('SELECT rating FROM annotations WHERE id = ?').get(annotation) as {
        rating: number | null
      }
      return row.rating
    } finally {
      db.close()
    }
  }

  /** A lead's shared project (through the app) and a reviewer's replica (through the app). */
  async function twoMembers(dir: string, reviewer: string) {
    const { t, a, leadPath, shared } = await sharedLead(dir)
    expect(shared.submissions).toBe(20)
    expect(shared.status).toMatchObject({ member: t.lead, role: 'lead' })
    const added = await addTeamMember(a.session.project().db, reviewer, 'reviewer')
    t.remember(reviewer, added.password as string)

    const b = app()
    const replicaPath = join(dir, `${reviewer}.winnow`)
    const job = (await b.call('team.join', {
      server: t.url(reviewer),
      name: reviewer,
      path: replicaPath,
    })) as JobProgress
    // A failed join names its error in the failure, not only its state.
    const outcome = (): string | undefined => {
      const done = b.session.jobs.get(job.id)
      return done?.state === 'failed' ? `failed: ${done.error?.message}` : done?.state
    }
    await expect.poll(outcome, { timeout: 30_000 }).toBe('succeeded')
    // The app opened the new replica, live.
    expect(b.session.info()?.path).toBe(replicaPath)
    await expect.poll(() => a.status()?.connection, { timeout: 15_000 }).toBe('online')
    await expect.poll(() => b.status()?.connection, { timeout: 15_000 }).toBe('online')
    return { t, a, b, leadPath, replicaPath }
  }

  function firstAnnotation(path: string): number {
    const db = openProject(path, { readonly: true })
    try {
      return (db.prepare('SELECT min(id) AS id FROM annotations').get() as { id: number }).id
    } finally {
      db.close()
    }
  }

  it('offers a lead the upgrade of an older server in the status bar, and tells a reviewer to ask the lead', async () => {
    const dir = tempDir()
    const { t, a, b, leadPath, replicaPath } = await twoMembers(dir, 'liverev9')
    await serverAtSchema3(postgres.server, t.db)
    const annotation = firstAnnotation(leadPath)
    await a.call('ratings.rateItems', { annotationIds: [annotation], rating: -2 })
    await b.call('ratings.rateItems', { annotationIds: [annotation + 1], rating: 2 })
    await expect.poll(() => a.status()?.upgrade, { timeout: 15_000 }).toBe(true)
    expect(a.status()?.problem).toMatch(/has server schema 3; this Winnow needs 5/)
    await expect.poll(() => b.status()?.problem ?? '', { timeout: 15_000 }).toMatch(/Ask the lead/)
    expect(b.status()?.upgrade).toBe(false)
    expect(a.status()?.pending).toBe(1)

    expect(await a.call('team.upgrade')).toMatchObject({ from: 3, to: 5 })
    expect(await serverSchemaVersion(postgres.server, t.db)).toBe(5)
    await expect.poll(() => a.status()?.pending, { timeout: 15_000 }).toBe(0)
    expect(a.status()).toMatchObject({ upgrade: false, problem: null })
    await expect.poll(() => ratingOf(replicaPath, annotation), { timeout: 15_000 }).toBe(-2)
    // The reviewer's app, hearing the lead's push, pushes what waited.
    await expect.poll(() => ratingOf(leadPath, annotation + 1), { timeout: 15_000 }).toBe(2)
  }, 120_000)

  it("pushes a rating in the background, and the other member's app pulls it and tells its page", async () => {
    const dir = tempDir()
    const { a, b, leadPath, replicaPath } = await twoMembers(dir, 'liverev1')
    const annotation = firstAnnotation(leadPath)
    const heardBefore = b.events.length

    await a.call('ratings.rateItems', { annotationIds: [annotation], rating: -2 })
    // Nobody ran a sync: the lead's app pushed it, the reviewer's heard of it and pulled.
    await expect.poll(() => ratingOf(replicaPath, annotation), { timeout: 10_000 }).toBe(-2)
    await expect.poll(() => a.status()?.pending, { timeout: 10_000 }).toBe(0)
    const told = b.events.slice(heardBefore).map((e) => e.name)
    expect(told).toContain('project.changed')
    expect(told).toContain('history.changed')

    // And back: the reviewer's rating reaches the lead; History names the change.
    await b.call('ratings.rateItems', { annotationIds: [annotation], rating: 1 })
    await expect.poll(() => ratingOf(leadPath, annotation), { timeout: 10_000 }).toBe(1)
    expect(ratingOf(replicaPath, annotation)).toBe(1)
  }, 90_000)

  it('says who else is working', async () => {
    const dir = tempDir()
    const { t, a, b } = await twoMembers(dir, 'liverev2')
    await expect.poll(() => a.status()?.others, { timeout: 15_000 }).toEqual(['liverev2'])
    await expect.poll(() => b.status()?.others, { timeout: 15_000 }).toEqual([t.lead])
    b.session.close()
    await expect.poll(() => a.status()?.others, { timeout: 15_000 }).toEqual([])
  }, 90_000)

  it('says offline while the server is away, keeps the work pending, and converges when it is back', async () => {
    const dir = tempDir()
    const { a, b, leadPath, replicaPath } = await twoMembers(dir, 'liverev3')
    const annotation = firstAnnotation(leadPath)

    await postgres.server.stop()
    try {
      await expect.poll(() => a.status()?.connection, { timeout: 15_000 }).toBe('offline')
      await a.call('ratings.rateItems', { annotationIds: [annotation], rating: -1 })
      expect(a.status()).toMatchObject({ connection: 'offline', pending: 1 })
      expect(a.status()?.lastContact).not.toBeNull()
      expect(ratingOf(replicaPath, annotation)).not.toBe(-1)
    } finally {
      await postgres.server.start()
    }
    await expect.poll(() => a.status()?.pending, { timeout: 20_000 }).toBe(0)
    await expect.poll(() => ratingOf(replicaPath, annotation), { timeout: 20_000 }).toBe(-1)
    expect(a.status()?.connection).toBe('online')
    await expect.poll(() => b.status()?.connection, { timeout: 20_000 }).toBe('online')
  }, 90_000)

  it('cancels a join and leaves no project file', async () => {
    const dir = tempDir()
    const { t, a } = await sharedLead(dir, 200)
    const added = await addTeamMember(a.session.project().db, 'liverev4', 'reviewer')
    t.remember('liverev4', added.password as string)

    const events: JobProgress[] = []
    let cancelled = false
    const b = new Session('serve', (name, payload) => {
      if (name !== 'job.progress') return
      const progress = payload as JobProgress
      events.push(progress)
      // Cancel once the collection is arriving: the file exists by then.
      if (!cancelled && progress.detail.startsWith('Receiving')) {
        cancelled = true
        b.jobs.cancel(progress.id)
      }
    })
    sessions.push(b)
    const path = join(dir, 'cancelled.winnow')
    const outcome = await dispatch(
      'team.join',
      { server: t.url('liverev4'), name: 'liverev4', path },
      { session: b },
    )
    expect(outcome.ok).toBe(true)
    await b.jobs.idle()
    expect(cancelled).toBe(true)
    expect(events.at(-1)?.state).toBe('cancelled')
    for (const suffix of ['', '-wal', '-shm']) expect(existsSync(path + suffix)).toBe(false)
    expect(b.info()).toBeNull()
  }, 90_000)

  it('joins on the task thread with its progress, and a join cancelled there leaves no project file', async () => {
    const dir = tempDir()
    const { t, a, leadPath } = await sharedLead(dir, 60)
    const added = await addTeamMember(a.session.project().db, 'liverev6', 'reviewer')
    t.remember('liverev6', added.password as string)
    const input = (path: string) => ({ path, server: t.url('liverev6'), name: 'liverev6' })

    // Cancelled before the thread begins: it stops at its first step, after making the file.
    const cancelledPath = join(dir, 'cancelled.winnow')
    const controller = new AbortController()
    controller.abort()
    const failure = await runTask(
      'join',
      input(cancelledPath),
      { signal: controller.signal, report: () => undefined },
      'thread',
    ).then(
      () => expect.unreachable(),
      (error: unknown) => error,
    )
    expect(failure).toBeInstanceOf(UserError)
    expect((failure as UserError).info.type).toBe('cancelled')
    for (const suffix of ['', '-wal', '-shm'])
      expect(existsSync(cancelledPath + suffix)).toBe(false)

    // Not cancelled: the replica the thread writes holds the lead's annotations and ratings.
    const path = join(dir, 'joined.winnow')
    const steps: string[] = []
    const joined = await runTask(
      'join',
      input(path),
      {
        signal: new AbortController().signal,
        report: (r) => {
          if (r.newStep && r.detail) steps.push(r.detail)
        },
      },
      'thread',
    )
    expect(joined.submissions).toBe(60)
    expect(steps).toContain('Receiving annotations')
    const ratings = (p: string) => {
      const db = openProject(p, { readonly: true })
      try {
        return db.prepare('SELECT id, rating, rating_source FROM annotations ORDER BY id').all()
      } finally {
        db.close()
      }
    }
    expect(ratings(path)).toEqual(ratings(leadPath))
  }, 120_000)

  it('keeps a typed password where the app keeps passwords, never in a file it writes; serve mode takes none', async () => {
    const dir = tempDir()
    const { t, a } = await sharedLead(dir)
    const added = await addTeamMember(a.session.project().db, 'liverev5', 'reviewer')
    const password = added.password as string

    // Serve mode: the password comes from libpq's conventions, never through the page.
    const served = app()
    const refused = await dispatch(
      'team.join',
      { server: t.url('liverev5'), name: 'liverev5', path: join(dir, 'x.winnow'), password },
      { session: served.session },
    )
    expect(refused).toMatchObject({ ok: false, error: { field: 'password' } })

    // The desktop app: a password store (the keychain there), and no pgpass line for this member.
    const kept = new Map<string, string>()
    const store: TeamPasswords = {
      read: (server) => kept.get(server) ?? null,
      save: (server, secret) => void kept.set(server, secret),
    }
    const desktop = app(store)
    const replicaPath = join(dir, 'liverev5.winnow')
    const job = (await desktop.call('team.join', {
      server: t.url('liverev5'),
      name: 'liverev5',
      path: replicaPath,
      password,
    })) as JobProgress
    await expect
      .poll(() => desktop.session.jobs.get(job.id)?.state, { timeout: 30_000 })
      .toBe('succeeded')
    expect([...kept]).toEqual([[t.url('liverev5'), password]])
    // Reopened later, the replica connects with the kept password.
    desktop.session.open(replicaPath)
    await expect.poll(() => desktop.status()?.connection, { timeout: 15_000 }).toBe('online')
    for (const name of readdirSync(dir)) {
      expect(readFileSync(join(dir, name)).includes(password), `${name} holds the password`).toBe(
        false,
      )
    }
  }, 90_000)

  it('offers to revert here a change set the server refused, after which the pending work behind it pushes', async () => {
    const dir = tempDir()
    const { t, a, b, leadPath, replicaPath } = await twoMembers(dir, 'liverev7')
    const annotation = firstAnnotation(leadPath)
    const defaults = (await b.call('triage.settings')) as { rushSeconds: number }

    // A reviewer may not change the project's settings: the server refuses the change set, and
    // the rating made after it waits behind it.
    await b.call('triage.saveSettings', { ...defaults, rushSeconds: defaults.rushSeconds + 7 })
    await b.call('ratings.rateItems', { annotationIds: [annotation], rating: -2 })
    await expect.poll(() => b.status()?.refused, { timeout: 15_000 }).not.toBeNull()
    const refused = b.status()?.refused as { changeSetId: number; description: string }
    expect(refused.description).toMatch(/^Flag thresholds/)
    expect(b.status()?.problem).toMatch(
      new RegExp(`refused change set ${refused.changeSetId} \\(Flag thresholds`),
    )
    expect(b.status()?.pending).toBe(2)
    expect(ratingOf(leadPath, annotation)).not.toBe(-2)

    // Only the refused change set is taken back this way.
    await expect(b.call('team.withdraw', { changeSetId: refused.changeSetId + 1 })).rejects.toThrow(
      /not-refused/,
    )
    expect(b.status()?.pending).toBe(2)

    await b.call('team.withdraw', { changeSetId: refused.changeSetId })
    await expect.poll(() => ratingOf(leadPath, annotation), { timeout: 15_000 }).toBe(-2)
    await expect.poll(() => b.status()?.pending, { timeout: 15_000 }).toBe(0)
    expect(b.status()).toMatchObject({ problem: null, refused: null })
    expect(((await b.call('triage.settings')) as { rushSeconds: number }).rushSeconds).toBe(
      defaults.rushSeconds,
    )
    expect(ratingOf(replicaPath, annotation)).toBe(-2)
    // Neither the refused change set nor its revert went to the server; the rating did.
    const logged = await postgres.server.admin$(
      `SELECT kind FROM winnow.change_sets WHERE member = 'liverev7' ORDER BY seq`,
      t.db,
    )
    expect(logged.rows).toEqual([{ kind: 'manual' }])
    // History here keeps both, the revert naming what it took back.
    const history = (await b.call('ratings.history', {})) as {
      changeSets: { id: number; kind: string; reverts?: number | null }[]
    }
    expect(history.changeSets.find((c) => c.id === refused.changeSetId)).toBeDefined()
    expect(history.changeSets.some((c) => c.kind === 'revert')).toBe(true)
    expect(a.status()?.problem).toBeNull()
  }, 90_000)
})

describe('sharing and joining from the app: arguments', () => {
  const tempDir = useTempDir()

  it('refuses a bad address, name or path naming the field, and makes nothing', async () => {
    const dir = tempDir()
    const session = new Session('serve', () => undefined)
    const path = join(dir, 'new.winnow')
    const cases: [Record<string, unknown>, string][] = [
      [{ server: 'http://host/db', name: 'bob', path }, 'server'],
      [{ server: 'postgres://bob@127.0.0.1:1/', name: 'bob', path }, 'server'],
      [{ server: 'postgres://bob@127.0.0.1:1/db', name: 'bob; DROP', path }, 'name'],
      [{ server: 'postgres://alice@127.0.0.1:1/db', name: 'bob', path }, 'name'],
      [{ server: 'postgres://bob@127.0.0.1:1/db', name: 'bob', path: 'relative.winnow' }, 'path'],
    ]
    for (const [args, field] of cases) {
      const outcome = await dispatch('team.join', args, { session })
      expect(outcome, JSON.stringify(args)).toMatchObject({ ok: false, error: { field } })
    }
    // Sharing needs an open project.
    const share = await dispatch(
      'team.share',
      { server: 'postgres://bob@127.0.0.1:1/db', name: 'bob' },
      { session },
    )
    expect(share).toMatchObject({ ok: false, error: { code: 'no-project' } })
    expect(readdirSync(dir)).toEqual([])
    expect(session.jobs.list()).toEqual([])
  })
})
