import type { Db } from '../db/connection'
import { withUser } from '../db/server/connect'
import { type Member, addMember, listMembers, removeMember } from '../db/server/members'
import { type TeamRole, checkServerSchema, groupRoles } from '../db/server/schema'
import { UserError } from '../../shared/contract/errors'
import { closeServer, inServerTransaction } from './server'
import { openTeamServer, requireTeam } from './sync'
import type { TeamServer } from './server'

/** What a lead hands a new member: the address to join with and, for a new role, its password. */
export interface AddedMember extends Member {
  connection: string
  /** Set only when the member's role was made now; shown once, stored nowhere. */
  password: string | null
}

async function withTeamServer<T>(db: Db, work: (server: TeamServer) => Promise<T>): Promise<T> {
  const team = requireTeam(db)
  const server = await openTeamServer(team)
  try {
    return await inServerTransaction(server, async () => {
      await checkServerSchema(server.client, server.address.url, team.role)
      return await work(server)
    })
  } finally {
    await closeServer(server)
  }
}

export async function addTeamMember(db: Db, name: string, role: TeamRole): Promise<AddedMember> {
  return await withTeamServer(db, async (server) => {
    const { password } = await addMember(server.client, groupRoles(server.address.database), {
      name,
      role,
    })
    const url = new URL(server.address.url)
    url.username = ''
    const connection = withUser({ ...server.address, url: url.href, user: '' }, name).url
    return { name, role, connection, password }
  })
}

export async function removeTeamMember(db: Db, name: string): Promise<{ name: string }> {
  return await withTeamServer(db, async (server) => {
    if (!(await removeMember(server.client, groupRoles(server.address.database), name))) {
      throw new UserError({
        type: 'not-found',
        code: 'no-such-member',
        message: `${name} is not a member of the team at ${server.address.url}.`,
        field: 'name',
      })
    }
    return { name }
  })
}

export async function listTeamMembers(db: Db): Promise<Member[]> {
  return await withTeamServer(db, (server) => listMembers(server.client))
}
