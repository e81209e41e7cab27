import { execFileSync } from 'node:child_process'
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'

/**
 * A real, throwaway PostgreSQL server for the team-mode tests: `initdb` and `pg_ctl` from the
 * Debian `postgresql` package (or `WINNOW_PG_BIN`), on 127.0.0.1 at a free port, in a temporary
 * folder removed by `stop()`. PostgreSQL refuses to run as root, so under root the server runs as
 * `nobody` through `runuser`; otherwise as the calling user.
 */
export interface PgServer {
  host: string
  port: number
  /** The superuser made by initdb; password authentication over TCP, as members use. */
  admin: { user: string; password: string }
  /** `postgres://user[:password]@127.0.0.1:port/database`. */
  url(database: string, user: string, password?: string): string
  /** Runs SQL as the superuser (in `database`, `postgres` by default). */
  admin$(text: string, database?: string): Promise<pg.QueryResult>
  /** A fresh empty database owned by a new login role with CREATEROLE (a team's lead). */
  createTeamDatabase(name: string, lead: { user: string; password: string }): Promise<void>
  stop(): Promise<void>
  start(): Promise<void>
  /** Stops the server and removes its folder. */
  destroy(): Promise<void>
}

/** The folder holding `initdb` and `pg_ctl`, or null where no PostgreSQL is installed. */
export function postgresBin(): string | null {
  const candidates: string[] = []
  if (process.env.WINNOW_PG_BIN) candidates.push(process.env.WINNOW_PG_BIN)
  const debian = '/usr/lib/postgresql'
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a))
    candidates.push(...versions.map((v) => join(debian, v, 'bin')))
  }
  for (const dir of (process.env.PATH ?? '').split(':')) if (dir) candidates.push(dir)
  return (
    candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) ??
    null
  )
}

/** Why the team tests cannot run here, or null when they can. */
export const noPostgres: string | null =
  postgresBin() === null
    ? 'no PostgreSQL server binaries (install the Debian package `postgresql`, or set WINNOW_PG_BIN to the folder holding initdb and pg_ctl)'
    : null

// Each suite that needs a server skips where there is none; this says why, once per test file.
if (noPostgres !== null) console.warn(`team mode tests skipped: ${noPostgres}`)

const RUN_AS = 'nobody'

function asServerUser(command: string, args: string[]): [string, string[]] {
  if (process.getuid?.() !== 0) return [command, args]
  return ['runuser', ['-u', RUN_AS, '--', command, ...args]]
}

function run(command: string, args: string[]): void {
  const [file, argv] = asServerUser(command, args)
  try {
    execFileSync(file, argv, { stdio: 'pipe' })
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? ''
    throw new Error(`${command} failed: ${stderr || String(error)}`, { cause: error })
  }
}

async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`
}

function quoteLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`
}

export async function startPostgres(): Promise<PgServer> {
  const bin = postgresBin()
  if (!bin) throw new Error(noPostgres ?? 'no PostgreSQL')
  const root = mkdtempSync(join(tmpdir(), 'winnow-pg-'))
  const data = join(root, 'data')
  const pwfile = join(root, 'pw')
  const admin = { user: 'winnow_admin', password: `admin-${Math.random().toString(36).slice(2)}` }
  writeFileSync(pwfile, admin.password)
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', RUN_AS]).toString().trim())
    const gid = Number(execFileSync('id', ['-g', RUN_AS]).toString().trim())
    chownSync(root, uid, gid)
    chownSync(pwfile, uid, gid)
  }
  chmodSync(root, 0o700)
  run(join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    admin.user,
    `--pwfile=${pwfile}`,
    '--auth-host=scram-sha-256',
    '--auth-local=trust',
    '-E',
    'UTF8',
    '--no-instructions',
  ])
  rmSync(pwfile)
  const port = await freePort()
  const options = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${root} -c fsync=off`
  const log = join(root, 'server.log')
  const start = async (): Promise<void> => {
    run(join(bin, 'pg_ctl'), ['-D', data, '-o', options, '-l', log, '-w', 'start'])
    await Promise.resolve()
  }
  const stop = async (): Promise<void> => {
    if (existsSync(join(data, 'postmaster.pid'))) {
      run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop'])
    }
    await Promise.resolve()
  }
  await start()
  const url = (database: string, user: string, password?: string): string =>
    `postgres://${encodeURIComponent(user)}${password === undefined ? '' : `:${encodeURIComponent(password)}`}@127.0.0.1:${port}/${encodeURIComponent(database)}`
  const admin$ = async (text: string, database = 'postgres'): Promise<pg.QueryResult> => {
    const client = new pg.Client({ connectionString: url(database, admin.user, admin.password) })
    await client.connect()
    try {
      return await client.query(text)
    } finally {
      await client.end()
    }
  }
  return {
    host: '127.0.0.1',
    port,
    admin,
    url,
    admin$,
    async createTeamDatabase(name, lead) {
      await admin$(
        `CREATE ROLE ${quoteIdent(lead.user)} LOGIN CREATEROLE PASSWORD ${quoteLiteral(lead.password)}`,
      )
      await admin$(`CREATE DATABASE ${quoteIdent(name)} OWNER ${quoteIdent(lead.user)}`)
    },
    start,
    stop,
    async destroy() {
      await stop()
      rmSync(root, { recursive: true, force: true })
    },
  }
}
