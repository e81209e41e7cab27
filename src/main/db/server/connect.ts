import pg from 'pg'
import { parseIntoClientConfig } from 'pg-connection-string'
import pgpass from 'pgpass'
import { UserError } from '../../../shared/contract/errors'

/**
 * Connections to the team's PostgreSQL server. A server address is a libpq URL
 * (`postgres://user[:password]@host:port/db?sslmode=…`); what Winnow keeps or prints is the URL
 * without its password. A password comes from the URL given on the command line, or from libpq's
 * conventions (`PGPASSWORD`, `~/.pgpass`), which node-postgres follows.
 */
export interface ServerAddress {
  /** The URL without its password: what the project file, the output and the errors hold. */
  url: string
  user: string
  database: string
}

export function parseServerUrl(text: string): ServerAddress & { password: string | null } {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new UserError({
      type: 'invalid-argument',
      code: 'bad-server-url',
      message: 'The server address must be a URL such as postgres://name@host:5432/database.',
      field: 'server',
    })
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new UserError({
      type: 'invalid-argument',
      code: 'bad-server-url',
      message: `The server address must start with postgres:// (got ${url.protocol}//).`,
      field: 'server',
    })
  }
  const password = url.password === '' ? null : decodeURIComponent(url.password)
  url.password = ''
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''))
  if (database === '') {
    throw new UserError({
      type: 'invalid-argument',
      code: 'bad-server-url',
      message: `The server address ${url.href} names no database (postgres://name@host:port/database).`,
      field: 'server',
    })
  }
  return { url: url.href, user: decodeURIComponent(url.username), database, password }
}

/** The URL with the member's role name as its user, when it names none. */
export function withUser(address: ServerAddress, user: string): ServerAddress {
  if (address.user !== '') return address
  const url = new URL(address.url)
  url.username = encodeURIComponent(user)
  return { ...address, url: url.href, user }
}

export type ServerClient = pg.Client

/**
 * Opens a connection; a server that cannot be reached or refuses the login is a `team-offline`
 * error naming the address without its password.
 */
export async function connectServer(
  address: ServerAddress,
  password: string | null = null,
  applicationName = 'winnow',
): Promise<ServerClient> {
  // The URL's fields (sslmode and the rest) as node-postgres reads them; the password given apart,
  // or found by libpq's conventions. (With `connectionString`, the URL would override it.)
  const url = new URL(address.url)
  const client = new pg.Client({
    ...parseIntoClientConfig(url.href),
    // No password found is `undefined`, which node-postgres takes for none (its types say string).
    password: password ?? (() => conventionalPassword(url) as Promise<string>),
    application_name: applicationName,
    connectionTimeoutMillis: 10_000,
  })
  // A connection lost while idle (a server stopped) must not crash the process.
  client.on('error', () => undefined)
  try {
    await client.connect()
  } catch (error) {
    await client.end().catch(() => undefined)
    throw offline(address, error, password)
  }
  return client
}

/** libpq's conventions: PGPASSWORD, else the matching line of ~/.pgpass (or PGPASSFILE). */
async function conventionalPassword(url: URL): Promise<string | undefined> {
  if (process.env.PGPASSWORD !== undefined) return process.env.PGPASSWORD
  const connection = {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1') || process.env.PGHOST || 'localhost',
    port: Number(url.port || process.env.PGPORT || 5432),
    database: decodeURIComponent(url.pathname.replace(/^\//, '')),
    user: decodeURIComponent(url.username),
  }
  return await new Promise((resolve) => {
    pgpass(connection, resolve)
  })
}

/** A failure to reach or use the server, worded without the password. */
export function offline(
  address: ServerAddress,
  error: unknown,
  password: string | null = null,
): UserError {
  const reason = scrubPassword(error instanceof Error ? error.message : String(error), password)
  if (/client password must be a string/.test(reason)) {
    return new UserError({
      type: 'conflict',
      code: 'team-no-password',
      message: `No password for ${address.url}: set PGPASSWORD, or add a line host:port:database:user:password to ~/.pgpass (or the file PGPASSFILE names).`,
    })
  }
  return new UserError({
    type: 'conflict',
    code: 'team-offline',
    message: `The team's server ${address.url} cannot be reached (${reason}).`,
  })
}

/** A message with every occurrence of the password masked. */
export function scrubPassword(text: string, password: string | null): string {
  return password ? text.split(password).join('***') : text
}

/** Whether an error is the server being unreachable (or gone mid-session), not a refusal. */
export function isConnectionError(error: unknown): boolean {
  if (error instanceof UserError) return error.info.code === 'team-offline'
  const code = (error as { code?: unknown } | null)?.code
  if (
    typeof code === 'string' &&
    /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|57P0[123]|08\d\d\d)$/.test(code)
  )
    return true
  return (
    error instanceof Error &&
    /Connection terminated|connection .*closed|not queryable/i.test(error.message)
  )
}

export function escapeIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`
}
