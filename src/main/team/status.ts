import type { Db } from '../db/connection'
import { pendingCount } from '../db/queries/team/state'
import { logHead } from '../db/server/log'
import { memberRole } from '../db/server/members'
import type { TeamRole } from '../db/server/schema'
import { isConnectionError } from '../db/server/connect'
import { closeServer } from './server'
import { openTeamServer, requireTeam } from './sync'

export interface TeamStatus {
  server: string
  member: string
  role: TeamRole
  /** Change sets waiting in the project file to be pushed. */
  pending: number
  /** The last place in the log this replica has applied. */
  seq: number
  /** The log's last place, or null when the server cannot be reached. */
  serverSeq: number | null
}

/** Where a team project stands; offline is an answer (serverSeq null), not a failure. */
export async function teamStatus(db: Db): Promise<TeamStatus> {
  const state = requireTeam(db)
  const local = {
    server: state.server,
    member: state.member,
    pending: pendingCount(db),
    seq: state.seq,
  }
  try {
    const server = await openTeamServer(state)
    try {
      const [serverSeq, role] = [
        await logHead(server.client),
        await memberRole(server.client, state.member),
      ]
      return { ...local, role: role ?? state.role, serverSeq }
    } finally {
      await closeServer(server)
    }
  } catch (error) {
    if (isConnectionError(error)) return { ...local, role: state.role, serverSeq: null }
    throw error
  }
}
