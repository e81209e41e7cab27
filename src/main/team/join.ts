import { existsSync, rmSync } from 'node:fs'
import { UserError } from '../../shared/contract/errors'
import type { Db, OpenOptions } from '../db/connection'
import { openProject } from '../db/connection'
import { createTeamTables, setTeamSeq, writeTeamState } from '../db/queries/team/state'
import { insertBulkRows, recordJoinedSettings, setAsideForJoin } from '../db/queries/team/bulk'
import { SHARED_TABLES, copyRowsOut } from '../db/server/bulk'
import { type PulledEntry, logHead, readLog } from '../db/server/log'
import { memberRole } from '../db/server/members'
import { takeReplicaNumber } from '../db/server/imports'
import { setReplicaNumber } from '../db/queries/team/ids'
import { checkServerSchema } from '../db/server/schema'
import { recomputeAll } from '../ratings/effective'
import type { TeamProgress } from './publish'
import { type TeamServer, closeServer, memberAddress, openServer, serverError } from './server'
import { applyBody, insertHeader } from './sync'
import { changeSetOfUid } from '../db/queries/team/state'

export interface JoinResult {
  submissions: number
  annotations: number
  changeSets: number
  seq: number
}

const LOG_PAGE = 1000
/**
 * Rows written in one local transaction while joining: few enough that the rows parsed for it die
 * young (large batches outlived V8's young generation and were collected at a full collection's
 * cost), as commits cost little with the journal in memory and nothing synced.
 */
const JOIN_BATCH = 2_000
/** How often, in rows, a join reports its progress (and checks for a cancel). */
const PROGRESS_EVERY = 50_000

/**
 * Makes a new local replica of a team's project (`winnow team join`): the log's change sets are
 * opened first, then the bulk data arrives by COPY, then each change set's rows are written and
 * the effective ratings worked out once. A join that fails removes the file it started.
 */
export async function joinTeam(
  path: string,
  options: { server: string; name: string },
  progress: TeamProgress = () => undefined,
  opening: Pick<OpenOptions, 'nativeBinding'> = {},
): Promise<JoinResult> {
  const { address, password } = memberAddress(options.server, options.name)
  if (existsSync(path)) {
    throw new UserError({
      type: 'conflict',
      code: 'file-exists',
      message: `${path} already exists; a replica is joined into a new file.`,
      file: path,
    })
  }
  const server = await openServer(address, password)
  let db: Db | null = null
  try {
    const role = await serverStep(server, async () => {
      await checkServerSchema(server.client, address.url)
      return await memberRole(server.client, options.name)
    })
    if (role === null) {
      throw new UserError({
        type: 'conflict',
        code: 'not-a-member',
        message: `${options.name} is not a member of the team at ${address.url}; a lead adds members with winnow team member add.`,
      })
    }
    const number = await serverStep(server, () => takeReplicaNumber(server.client))
    // Each page is read about once: mapped, they would count as the join's memory.
    db = openProject(path, { create: true, memoryMap: false, ...opening })
    const replica = db
    replica
      .transaction(() => {
        createTeamTables(replica)
        writeTeamState(replica, { server: address.url, member: options.name, role, seq: 0 })
        setReplicaNumber(replica, number)
      })
      .immediate()
    // A consistent picture: every read of the join sees the log and the tables at one moment.
    await serverStep(server, () =>
      server.client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY'),
    )
    const head = await serverStep(server, () => logHead(server.client))
    const changeSets = await readWholeLog(server, head, progress, (page) =>
      replica
        .transaction(() => {
          for (const entry of page) insertHeader(replica, entry)
        })
        .immediate(),
    )
    const counts = { submissions: 0, annotations: 0 }
    // Every row names the change set that brought it, and a project has few: looked up once each.
    const changeSetIds = new Map<string, number>()
    const changeSetOf = (uid: string): number => {
      let id = changeSetIds.get(uid)
      if (id === undefined) changeSetIds.set(uid, (id = localChangeSet(replica, uid)))
      return id
    }
    const setAside = setAsideForJoin(replica)
    for (const table of SHARED_TABLES) {
      const step = `Receiving ${table.name.replaceAll('_', ' ')}`
      progress(step, 0, null)
      let received = 0
      const n = await serverStep(server, () =>
        copyRowsOut(
          server.client,
          table,
          (rows) => {
            insertBulkRows(replica, table, rows, changeSetOf)
            const before = received
            received += rows.length
            if (Math.floor(received / PROGRESS_EVERY) > Math.floor(before / PROGRESS_EVERY)) {
              progress(step, received, null)
            }
          },
          JOIN_BATCH,
        ),
      )
      if (table.name === 'submissions') counts.submissions = n
      if (table.name === 'annotations') counts.annotations = n
    }
    progress('Building indexes', 0, null)
    setAside.rebuildIndexes()
    recordJoinedSettings(replica)
    await readWholeLog(server, head, progress, (page) =>
      replica
        .transaction(() => {
          for (const entry of page) applyBody(replica, localChangeSet(replica, entry.uid), entry)
        })
        .immediate(),
    )
    await serverStep(server, () => server.client.query('COMMIT'))
    progress('Working out effective ratings', 0, null)
    setAside.rewrite(() => recomputeAll(replica))
    setAside.finish()
    replica.transaction(() => setTeamSeq(replica, head)).immediate()
    return { ...counts, changeSets, seq: head }
  } catch (error) {
    if (db) {
      db.close()
      db = null
      for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true })
    }
    throw error
  } finally {
    db?.close()
    await closeServer(server)
  }
}

function localChangeSet(db: Db, uid: string): number {
  const id = changeSetOfUid(db, uid)
  if (id === undefined) throw new Error(`bulk data of change set ${uid}, which the log lacks`)
  return id
}

async function serverStep<T>(server: TeamServer, work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    throw serverError(server, error)
  }
}

/** Reads the log up to `head` a page at a time; returns how many entries. */
async function readWholeLog(
  server: TeamServer,
  head: number,
  progress: TeamProgress,
  take: (page: PulledEntry[]) => void,
): Promise<number> {
  let after = 0
  let count = 0
  for (;;) {
    const page = (await serverStep(server, () => readLog(server.client, after, LOG_PAGE))).filter(
      (e) => e.seq <= head,
    )
    if (page.length === 0) return count
    take(page)
    count += page.length
    after = page[page.length - 1]?.seq ?? after
    progress('Reading the log', after, head)
  }
}
