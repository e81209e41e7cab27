import { spawn } from 'node:child_process'
import { appendFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, expect } from 'vitest'
import { ok } from './cli'
import { restoreEnvAfterEach } from './env'
import { releaseCsv } from './glucose'
import { type PgServer, startPostgres } from './postgres'

const root = join(import.meta.dirname, '..', '..')

/** A fresh team database and its lead, the passwords in a pgpass file the members use. */
export interface TeamDatabase {
  /** 1 for the file's first team database, 2 for its second…: for member names unique to it. */
  number: number
  db: string
  /** The lead's member (and login role) name. */
  lead: string
  leadPassword: string
  url(user: string, password?: string): string
  /** Adds a line for `user` to the pgpass file. */
  remember(user: string, password: string): void
  /** `winnow team init` of the project at `path`, as the lead; what it printed. */
  publish(path: string): Promise<Record<string, unknown>>
  /** Adds a member through the lead's project; the member's password, remembered. */
  addMember(leadPath: string, name: string, role: string): Promise<string>
  /** Adds a member and joins its replica `name.winnow` beside the lead's; the replica's path. */
  join(leadPath: string, name: string, role?: string): Promise<string>
  /**
   * Runs `winnow team sync` of `path` (`member`'s project) in a process of its own while another
   * transaction holds the log's head, and kills the process once its push waits there.
   */
  killSyncInPush(member: string, path: string): Promise<void>
}

export interface Postgres {
  /** The file's server, started before its first test. */
  readonly server: PgServer
  /**
   * A team database in `dir` named `${names.db}N`, its lead `${names.lead}N`. Role names are
   * cluster-wide: members a test adds need names no other test of the file uses.
   */
  teamDatabase(dir: string): Promise<TeamDatabase>
}

/**
 * One throwaway PostgreSQL server for a test file (call inside its `describe`), and the pgpass
 * settings a test changes put back after it.
 */
export function usePostgres(names: { db: string; lead: string }): Postgres {
  let server: PgServer | undefined
  let databases = 0
  beforeAll(async () => {
    server = await startPostgres()
  }, 120_000)
  afterAll(async () => {
    await server?.destroy()
  })
  restoreEnvAfterEach('PGPASSFILE', 'PGPASSWORD')
  const running = (): PgServer => {
    if (!server) throw new Error('the PostgreSQL server is not started')
    return server
  }
  return {
    get server() {
      return running()
    },
    async teamDatabase(dir) {
      const pgServer = running()
      const db = `${names.db}${++databases}`
      const lead = `${names.lead}${databases}`
      const leadPassword = `pw-${lead}-${Math.random().toString(36).slice(2)}`
      await pgServer.createTeamDatabase(db, { user: lead, password: leadPassword })
      const pgpass = join(dir, 'pgpass')
      writeFileSync(pgpass, '', { mode: 0o600 })
      process.env.PGPASSFILE = pgpass
      delete process.env.PGPASSWORD
      const url = (user: string, password?: string): string => pgServer.url(db, user, password)
      const remember = (user: string, password: string): void =>
        appendFileSync(pgpass, `127.0.0.1:${pgServer.port}:${db}:${user}:${password}\n`)
      remember(lead, leadPassword)
      const addMember = async (leadPath: string, name: string, role: string): Promise<string> => {
        const added = await ok('team', 'member', 'add', name, '--role', role, '--db', leadPath)
        expect(added).toMatchObject({ member: name, role })
        const password = added.password as string
        remember(name, password)
        return password
      }
      return {
        number: databases,
        db,
        lead,
        leadPassword,
        url,
        remember,
        publish: (path) => ok('team', 'init', '--db', path, '--server', url(lead), '--name', lead),
        addMember,
        async join(leadPath, name, role = 'reviewer') {
          await addMember(leadPath, name, role)
          const path = join(dir, `${name}.winnow`)
          await ok('team', 'join', '--server', url(name), '--db', path, '--name', name)
          return path
        },
        killSyncInPush: (member, path) => killSyncInPush(pgServer, db, member, path),
      }
    },
  }
}

/** `dir/name`: a project imported from a release CSV of `count` generated submissions. */
export async function importedProject(dir: string, name: string, count: number): Promise<string> {
  const path = join(dir, name)
  await ok('import', releaseCsv(dir, `${name}.csv`, count, 7), '--db', path)
  return path
}

async function killSyncInPush(
  server: PgServer,
  db: string,
  member: string,
  path: string,
): Promise<void> {
  const blocker = new pg.Client({
    connectionString: server.url(db, server.admin.user, server.admin.password),
  })
  blocker.on('error', () => undefined)
  await blocker.connect()
  await blocker.query('BEGIN')
  await blocker.query('SELECT * FROM winnow.log_head FOR UPDATE')
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'src/main/cli/main.ts'), 'team', 'sync', '--db', path],
    { cwd: root, stdio: 'ignore', env: process.env },
  )
  const exited = new Promise((resolve) => child.once('exit', resolve))
  for (;;) {
    // Asked on another connection: a transaction sees one snapshot of pg_stat_activity.
    const waiting = await server.admin$(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE usename = '${member}' AND wait_event_type = 'Lock'`,
    )
    if ((waiting.rows[0] as { n: number }).n > 0) break
    expect(child.exitCode).toBeNull()
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  child.kill('SIGKILL')
  await exited
  await blocker.query('ROLLBACK')
  await blocker.end()
}

/**
 * Inserts a change set of `kind` into the team's log with raw SQL, connecting to `url` as a member
 * would from a modified client: null when the server took it, else the server's error.
 */
export async function forgeChangeSet(url: string, kind: string, payload: object): Promise<unknown> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(
      `INSERT INTO winnow.change_sets (uid, kind, author, created_at, description, payload)
       VALUES (gen_random_uuid(), $1, 'x', 0, 'forged', $2)`,
      [kind, { reverts: null, effects: null, ...payload }],
    )
    return null
  } catch (error) {
    return error
  } finally {
    await client.end()
  }
}
