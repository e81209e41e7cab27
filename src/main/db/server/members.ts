import { randomBytes } from 'node:crypto'
import { UserError } from '../../../shared/contract/errors'
import { type ServerClient, escapeIdentifier } from './connect'
import { type GroupRoles, TEAM_ROLES, type TeamRole } from './schema'

/**
 * Members are PostgreSQL login roles of their own, granted the group role of their team role; the
 * `winnow.members` table names them for the app and for the push policy.
 */
export interface Member {
  name: string
  role: TeamRole
}

export async function listMembers(client: ServerClient): Promise<Member[]> {
  const result = await client.query<Member>('SELECT name, role FROM winnow.members ORDER BY name')
  return result.rows
}

export async function memberRole(client: ServerClient, name: string): Promise<TeamRole | null> {
  const result = await client.query<{ role: TeamRole }>(
    'SELECT role FROM winnow.members WHERE name = $1',
    [name],
  )
  return result.rows[0]?.role ?? null
}

/**
 * Adds a member, or changes a member's role. A role that does not exist yet is made with a new
 * password, returned once so the lead can hand it over; an existing role keeps its password.
 * Runs in the caller's transaction.
 */
export async function addMember(
  client: ServerClient,
  groups: GroupRoles,
  member: Member,
): Promise<{ password: string | null }> {
  if (!/^[A-Za-z_][A-Za-z0-9_.-]{0,62}$/.test(member.name)) {
    throw new UserError({
      type: 'invalid-argument',
      code: 'bad-member-name',
      message: `A member's name is a PostgreSQL role name: letters, digits, _ . - (got '${member.name}').`,
      field: 'name',
    })
  }
  const role = escapeIdentifier(member.name)
  const exists = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [member.name])
  let password: string | null = null
  if (exists.rowCount === 0) {
    password = randomBytes(18).toString('base64url')
    await client.query(`CREATE ROLE ${role} LOGIN PASSWORD ${client.escapeLiteral(password)}`)
  }
  await revokeGroups(client, groups, member.name)
  await client.query(`GRANT ${escapeIdentifier(groups[member.role])} TO ${role}`)
  await client.query(
    `INSERT INTO winnow.members (name, role) VALUES ($1, $2)
     ON CONFLICT (name) DO UPDATE SET role = excluded.role`,
    [member.name, member.role],
  )
  return { password }
}

/** Removes a member: its role keeps existing (it may serve other databases) but loses this team. */
export async function removeMember(
  client: ServerClient,
  groups: GroupRoles,
  name: string,
): Promise<boolean> {
  const removed = await client.query('DELETE FROM winnow.members WHERE name = $1', [name])
  const exists = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [name])
  if (exists.rowCount !== 0) await revokeGroups(client, groups, name)
  return (removed.rowCount ?? 0) > 0
}

async function revokeGroups(client: ServerClient, groups: GroupRoles, name: string): Promise<void> {
  for (const team of TEAM_ROLES) {
    await client.query(`REVOKE ${escapeIdentifier(groups[team])} FROM ${escapeIdentifier(name)}`)
  }
}
