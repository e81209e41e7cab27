import { UserError } from '../../shared/contract/errors'
import type { Db } from '../db/connection'
import { publishedRows } from '../db/queries/team/bulk'
import { groupRoles, upgradeServerSchema } from '../db/server/schema'
import { type TeamServer, closeServer, inServerTransaction } from './server'
import { openTeamServer, requireTeam } from './sync'

export interface UpgradeResult {
  server: string
  from: number
  to: number
}

/**
 * Upgrades the team's server to this Winnow's schema (`winnow team upgrade`, or Upgrade in the
 * app's status bar): its pending migrations in one transaction, what they made filled from this
 * replica (the lead's). The server refuses anyone outside the leads' group, which owns the schema,
 * whatever the app asks; that refusal is said in the team's words.
 */
export async function upgradeTeamServer(db: Db): Promise<UpgradeResult> {
  const server = await openTeamServer(requireTeam(db))
  try {
    return await upgradeWith(db, server)
  } finally {
    await closeServer(server)
  }
}

/** The upgrade over an open connection (the app's live one). */
export async function upgradeWith(db: Db, server: TeamServer): Promise<UpgradeResult> {
  const { from, to } = await inServerTransaction(server, () =>
    upgradeServerSchema(
      server.client,
      groupRoles(server.address.database),
      (table) => publishedRows(db, table),
      server.address.url,
    ),
  ).catch((error: unknown) => {
    if (error instanceof UserError && error.info.code === 'not-allowed') {
      // A server before migration 6 is its publisher's alone until they upgrade it once.
      const who =
        requireTeam(db).role === 'lead'
          ? 'This server was set up before every lead could upgrade it: the lead who published the team upgrades it this once (winnow team upgrade), and any lead can after.'
          : "Only a lead can upgrade the team's server; ask a lead to run winnow team upgrade."
      throw new UserError({
        type: 'conflict',
        code: 'not-allowed',
        message: `${who} ${error.message} Nothing changed.`,
      })
    }
    throw error
  })
  return { server: server.address.url, from, to }
}
