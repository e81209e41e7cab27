import type { ServerClient } from './connect'

/**
 * Claims of triage queue items on the server. A claim locks its queue's row first, so two
 * reviewers claiming from one queue at once take turns and each gets items the other did not.
 * Call inside a transaction.
 */
export async function claimPositions(
  client: ServerClient,
  queueUid: string,
  wanted: readonly number[],
  count: number,
): Promise<number[]> {
  await client.query(
    'INSERT INTO winnow.triage_claim_queues (queue_uid) VALUES ($1) ON CONFLICT DO NOTHING',
    [queueUid],
  )
  await client.query('SELECT 1 FROM winnow.triage_claim_queues WHERE queue_uid = $1 FOR UPDATE', [
    queueUid,
  ])
  const claimed = await client.query<{ position: number }>(
    `INSERT INTO winnow.triage_claims (queue_uid, position)
     SELECT $1, w.position FROM unnest($2::int[]) WITH ORDINALITY AS w(position, ord)
     WHERE NOT EXISTS (SELECT 1 FROM winnow.triage_claims c
       WHERE c.queue_uid = $1 AND c.position = w.position)
     ORDER BY w.ord LIMIT $3
     RETURNING position`,
    [queueUid, wanted, count],
  )
  return claimed.rows.map((r) => r.position).sort((a, b) => a - b)
}

/** Every claim the team has made, queues named by the global id of the change set that started them. */
export async function allClaims(
  client: ServerClient,
): Promise<{ queueUid: string; position: number; member: string }[]> {
  const result = await client.query<{ queue_uid: string; position: number; member: string }>(
    `SELECT replace(queue_uid::text, '-', '') AS queue_uid, position, member
     FROM winnow.triage_claims ORDER BY queue_uid, position`,
  )
  return result.rows.map((r) => ({ queueUid: r.queue_uid, position: r.position, member: r.member }))
}
