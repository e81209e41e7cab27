import { UserError } from '../../shared/contract/errors'
import type { Db } from '../db/connection'
import { openPositions } from '../db/queries/team/claims'
import { makerUid } from '../db/queries/team/entries'
import { currentQueueId } from '../db/queries/triage'
import { claimPositions } from '../db/server/claims'
import { checkServerSchema } from '../db/server/schema'
import { closeServer, inServerTransaction } from './server'
import { openTeamServer, refreshClaims, requireTeam, syncWith } from './sync'

export interface ClaimResult {
  queue: number
  /** Positions this member now reviews, claimed by this call. */
  claimed: number[]
}

/**
 * Splits a triage queue between reviewers: claims the next `count` items no one has claimed or
 * reviewed for this member, on the server (one claim at a time per queue), after a sync so the
 * queue itself is on the server and the replica knows what others reviewed.
 */
export async function claimTriage(
  db: Db,
  options: { queueId?: number; count: number },
): Promise<ClaimResult> {
  const state = requireTeam(db)
  const queueId = options.queueId ?? currentQueueId(db)
  if (queueId === null || queueId === undefined) {
    throw new UserError({
      type: 'not-found',
      code: 'no-triage-queue',
      message: 'No triage queue to claim from: start one on the Today page or with winnow triage.',
      field: 'queue',
    })
  }
  const server = await openTeamServer(state)
  try {
    await syncWith(db, server, state.member)
    const queueUid = makerUid(db, 'queue', queueId)
    if (queueUid === undefined) {
      throw new UserError({
        type: 'conflict',
        code: 'not-shared',
        message: `Triage queue ${queueId} was started before this project recorded change sets, so it cannot be split; start a new one.`,
        field: 'queue',
      })
    }
    const claimed = await inServerTransaction(server, async () => {
      await checkServerSchema(server.client, server.address.url)
      return await claimPositions(
        server.client,
        queueUid,
        openPositions(db, queueId),
        options.count,
      )
    })
    await refreshClaims(db, server)
    return { queue: queueId, claimed }
  } finally {
    await closeServer(server)
  }
}
