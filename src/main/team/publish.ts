import { UserError } from '../../shared/contract/errors'
import type { Db } from '../db/connection'
import { openProject } from '../db/connection'
import {
  createTeamTables,
  isTeamProject,
  pendingChangeSets,
  writeTeamState,
} from '../db/queries/team/state'
import { localBulkCount, localBulkRows } from '../db/queries/team/bulk'
import { SHARED_TABLES, copyRowsIn } from '../db/server/bulk'
import { appendToLog } from '../db/server/log'
import { takeReplicaNumber } from '../db/server/imports'
import { setReplicaNumber } from '../db/queries/team/ids'
import { addMember } from '../db/server/members'
import { createServerSchema, groupRoles, holdsTeam } from '../db/server/schema'
import { settlePending } from '../ratings/importTimelines'
import { logEntry } from './codecs'
import { closeServer, inServerTransaction, memberAddress, openServer, serverError } from './server'
import { pull } from './sync'

export interface PublishResult {
  server: string
  member: string
  role: 'lead'
  changeSets: number
  submissions: number
}

export type TeamProgress = (step: string, done: number, total: number | null) => void

/**
 * Publishes a project to an empty PostgreSQL database (`winnow team init`): in one server
 * transaction the team's schema, the lead as its first member, the bulk data by COPY (GLUCOSE's
 * and every collection's tables) and every change set of the project into the log. The project
 * then is the lead's replica.
 */
export async function publishProject(
  path: string,
  options: { server: string; name: string },
  progress: TeamProgress = () => undefined,
): Promise<PublishResult> {
  const { address, password } = memberAddress(options.server, options.name)
  const db = openProject(path)
  try {
    if (isTeamProject(db)) {
      throw new UserError({
        type: 'conflict',
        code: 'already-a-team-project',
        message: `${path} is already a team project; winnow team status shows its server.`,
        file: path,
      })
    }
    const server = await openServer(address, password)
    try {
      try {
        if (await holdsTeam(server.client)) {
          throw new UserError({
            type: 'conflict',
            code: 'server-not-empty',
            message: `${address.url} already holds a Winnow team; publish to an empty database, or join that team with winnow team join.`,
          })
        }
      } catch (error) {
        throw serverError(server, error)
      }
      const changeSets = prepare(db, options.name)
      let submissions = 0
      await inServerTransaction(server, async () => {
        const groups = groupRoles(address.database)
        await createServerSchema(server.client, groups)
        await addMember(server.client, groups, { name: options.name, role: 'lead' })
        for (const table of SHARED_TABLES) {
          const total = localBulkCount(db, table)
          progress(`Sending ${table.name.replaceAll('_', ' ')}`, 0, total)
          const sent = await copyRowsIn(server.client, table, localBulkRows(db, table), (n) =>
            progress(`Sending ${table.name.replaceAll('_', ' ')}`, n, total),
          )
          if (table.name === 'submissions') submissions = sent
        }
        progress('Sending change sets', 0, changeSets)
        let sent = 0
        for (;;) {
          const batch = pendingChangeSets(db, 200, sent)
          if (batch.length === 0) break
          await appendToLog(
            server.client,
            batch.map((c) => logEntry(db, c)),
          )
          sent = batch[batch.length - 1]?.id ?? sent
          progress('Sending change sets', sent, changeSets)
        }
      })
      const number = await takeReplicaNumber(server.client).catch((error: unknown) => {
        throw serverError(server, error)
      })
      db.transaction(() => {
        writeTeamState(db, { server: address.url, member: options.name, role: 'lead', seq: 0 })
        setReplicaNumber(db, number)
      }).immediate()
      progress('Recording places in the log', 0, changeSets)
      await pull(db, server)
      return { server: address.url, member: options.name, role: 'lead', changeSets, submissions }
    } finally {
      await closeServer(server)
    }
  } finally {
    db.close()
  }
}

/**
 * Before publishing: file ratings still waiting to become timelines get their change set. Returns
 * how many change sets the log will hold.
 */
function prepare(db: Db, author: string): number {
  return db
    .transaction(() => {
      createTeamTables(db)
      settlePending(db, author)
      return pendingChangeSets(db).length
    })
    .immediate()
}
