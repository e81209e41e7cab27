import type { ServerClient } from './connect'

/**
 * Who else is working: an open app holds one connection to the team's database under this
 * application name, and PostgreSQL shows every session's role and application name to every
 * user, so presence needs no table of its own (and a killed app leaves it when its socket closes).
 */
export const LIVE_APPLICATION = 'winnow-app'

/** The other members (PostgreSQL roles) with an app open on this database, by name. */
export async function membersWorking(client: ServerClient): Promise<string[]> {
  const result = await client.query<{ member: string }>(
    `SELECT DISTINCT usename AS member FROM pg_stat_activity
     WHERE datname = current_database() AND application_name = $1
       AND usename IS NOT NULL AND usename <> session_user
     ORDER BY 1`,
    [LIVE_APPLICATION],
  )
  return result.rows.map((r) => r.member)
}

/**
 * Says this app has arrived and hears others arrive, so a member who opens the project shows at
 * once rather than at the next look; one who leaves shows at the next look.
 */
export async function announcePresence(client: ServerClient, heard: () => void): Promise<void> {
  client.on('notification', (message) => {
    if (message.channel === 'winnow_presence') heard()
  })
  await client.query('LISTEN winnow_presence')
  await client.query(`SELECT pg_notify('winnow_presence', '')`)
}
