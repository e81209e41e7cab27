import type { ServerClient } from './connect'

/** A change set as the log carries it. */
export interface LogEntry {
  /** The change set's global id as the project keeps it (32 hex digits; the log's UUID). */
  uid: string
  kind: string
  author: string
  /** Epoch ms on the member's clock. */
  createdAt: number
  description: string
  payload: unknown
}

/** Where the log put a change set: its place, its time and the member who pushed it. */
export interface Placed {
  uid: string
  seq: number
  recordedAt: number
  member: string
}

export interface PulledEntry extends LogEntry, Placed {}

/**
 * Inserts the change sets the log lacks, in order, inside the caller's transaction; returns the
 * place of every one of them, new or pushed before (a retried push doubles nothing).
 */
export async function appendToLog(
  client: ServerClient,
  entries: readonly LogEntry[],
): Promise<Placed[]> {
  if (entries.length === 0) return []
  const rows = entries.map((e, ord) => ({
    ord,
    uid: e.uid,
    kind: e.kind,
    author: e.author,
    created_at: e.createdAt,
    description: e.description,
    payload: e.payload,
  }))
  await client.query(
    // The trigger gives each row its place, time and member, in this order.
    `INSERT INTO winnow.change_sets (uid, kind, author, created_at, description, payload)
     SELECT x.uid, x.kind, x.author, x.created_at, x.description, x.payload
     FROM jsonb_to_recordset($1::jsonb) AS x(ord integer, uid uuid, kind text, author text,
       created_at bigint, description text, payload jsonb)
     WHERE NOT EXISTS (SELECT 1 FROM winnow.change_sets c WHERE c.uid = x.uid)
     ORDER BY x.ord`,
    [JSON.stringify(rows)],
  )
  const placed = await client.query<{
    uid: string
    seq: string
    recorded_at: string
    member: string
  }>(
    `SELECT replace(uid::text, '-', '') AS uid, seq, recorded_at, member FROM winnow.change_sets
     WHERE uid = ANY($1::uuid[])`,
    [entries.map((e) => e.uid)],
  )
  return placed.rows.map((r) => ({
    uid: r.uid,
    seq: Number(r.seq),
    recordedAt: Number(r.recorded_at),
    member: r.member,
  }))
}

/** The change sets placed after `after`, in order. */
export async function readLog(
  client: ServerClient,
  after: number,
  limit = 500,
): Promise<PulledEntry[]> {
  const result = await client.query<{
    uid: string
    seq: string
    recorded_at: string
    member: string
    kind: string
    author: string
    created_at: string
    description: string
    payload: unknown
  }>(
    `SELECT replace(uid::text, '-', '') AS uid, seq, recorded_at, member, kind, author, created_at,
       description, payload
     FROM winnow.change_sets WHERE seq > $1 ORDER BY seq LIMIT $2`,
    [after, limit],
  )
  return result.rows.map((r) => ({
    uid: r.uid,
    seq: Number(r.seq),
    recordedAt: Number(r.recorded_at),
    member: r.member,
    kind: r.kind,
    author: r.author,
    createdAt: Number(r.created_at),
    description: r.description,
    payload: r.payload,
  }))
}

/** The last place given in the log. */
export async function logHead(client: ServerClient): Promise<number> {
  const result = await client.query<{ seq: string | null }>(
    'SELECT max(seq) AS seq FROM winnow.change_sets',
  )
  return Number(result.rows[0]?.seq ?? 0)
}

/** Listens for pushes; `heard` gets the log's new head. */
export async function listenForPushes(
  client: ServerClient,
  heard: (seq: number) => void,
): Promise<void> {
  client.on('notification', (message) => {
    if (message.channel === 'winnow_log') heard(Number(message.payload ?? 0))
  })
  await client.query('LISTEN winnow_log')
}
