import { UserError } from '../../shared/contract/errors'
import {
  type ServerAddress,
  type ServerClient,
  connectServer,
  isConnectionError,
  offline,
  parseServerUrl,
  withUser,
} from '../db/server/connect'

/** A connection to the team's server, with the address it is known by (no password). */
export interface TeamServer {
  client: ServerClient
  address: ServerAddress
}

/**
 * The address a member connects with: the URL's user is the member's own PostgreSQL role, so a
 * URL naming someone else is refused; a URL naming no one gets the member's name.
 */
export function memberAddress(
  url: string,
  member: string,
): { address: ServerAddress; password: string | null } {
  const parsed = parseServerUrl(url)
  if (parsed.user !== '' && parsed.user !== member) {
    throw new UserError({
      type: 'invalid-argument',
      code: 'member-mismatch',
      message: `The server address connects as ${parsed.user}, but the member is ${member}: each member connects as a role of its own.`,
      field: 'name',
    })
  }
  const { password, ...address } = parsed
  return { address: withUser(address, member), password }
}

export async function openServer(
  address: ServerAddress,
  password: string | null = null,
): Promise<TeamServer> {
  return { client: await connectServer(address, password), address }
}

export async function closeServer(server: TeamServer): Promise<void> {
  await server.client.end().catch(() => undefined)
}

/**
 * Runs `work` in one server transaction. A lost connection is `team-offline`; other failures keep
 * their message (PostgreSQL's own words, such as a refused permission) without any password.
 */
export async function inServerTransaction<T>(
  server: TeamServer,
  work: () => Promise<T>,
): Promise<T> {
  const { client } = server
  try {
    await client.query('BEGIN')
    const result = await work()
    await client.query('COMMIT')
    return result
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined)
    throw serverError(server, error)
  }
}

export function serverError(server: TeamServer, error: unknown): Error {
  if (error instanceof UserError) return error
  if (isConnectionError(error)) return offline(server.address, error)
  const code = (error as { code?: unknown }).code
  if (code === '42501') {
    return new UserError({
      type: 'conflict',
      code: 'not-allowed',
      message: `The team's server refused: ${(error as Error).message}.`,
    })
  }
  return error instanceof Error ? error : new Error(String(error))
}
