import { openProject } from '../../db/connection'
import { TEAM_ROLES, type TeamRole } from '../../db/server/schema'
import { triageQueue } from '../../db/queries/triage'
import { claimTriage } from '../../team/claims'
import { joinTeam } from '../../team/join'
import { addTeamMember, listTeamMembers, removeTeamMember } from '../../team/members'
import { type TeamProgress, publishProject } from '../../team/publish'
import { teamStatus } from '../../team/status'
import { syncTeam } from '../../team/sync'
import { upgradeTeamServer } from '../../team/upgrade'
import {
  type Command,
  type CommandIo,
  type CommandOutput,
  type ParsedValues,
  UsageError,
  requireString,
} from '../command'
import { progressLine } from '../progress'

const USAGE = `winnow team init --db P --server URL --name NAME [--json]
       winnow team join --server URL --db NEW --name NAME [--json]
       winnow team sync --db P [--json]
       winnow team status --db P [--json]
       winnow team upgrade --db P [--json]
       winnow team claim --db P [--queue N] [--count K] [--json]
       winnow team member add NAME --role lead|reviewer|viewer --db P [--json]
       winnow team member remove NAME --db P [--json]
       winnow team member list --db P [--json]`

/**
 * `winnow team …`: share a project through PostgreSQL. Passwords come from the URL given to init
 * or join for that run only, or from PGPASSWORD and ~/.pgpass; the project keeps the URL without it.
 */
export const teamCommand: Command = {
  name: 'team',
  summary:
    'Share a project with a team through PostgreSQL: init, join, sync, status, upgrade, claim, member',
  usage: USAGE,
  positionals: true,
  options: {
    db: { type: 'string' },
    json: { type: 'boolean' },
    server: { type: 'string' },
    name: { type: 'string' },
    role: { type: 'string' },
    queue: { type: 'string' },
    count: { type: 'string' },
  },
  async run(values, positionals, io) {
    const [verb, ...rest] = positionals
    switch (verb) {
      case 'init':
        return await init(values, rest, io)
      case 'join':
        return await join(values, rest, io)
      case 'sync':
        return await onProject(values, rest, async (db) => {
          const r = await syncTeam(db)
          return {
            json: r,
            text: `Pushed ${r.pushed}, pulled ${r.pulled}; at place ${r.seq} of the log.`,
          }
        })
      case 'status':
        return await onProject(values, rest, async (db) => {
          const s = await teamStatus(db)
          const where = s.serverSeq === null ? 'offline' : `the log is at ${s.serverSeq}`
          return {
            json: s,
            text: `${s.member} (${s.role}) on ${s.server}: ${s.pending} waiting to push; at place ${s.seq}, ${where}.`,
          }
        })
      case 'upgrade':
        return await onProject(values, rest, async (db) => {
          const r = await upgradeTeamServer(db)
          return {
            json: r,
            text:
              r.from === r.to
                ? `The server ${r.server} is at schema ${r.to} already; nothing to do.`
                : `Upgraded the server ${r.server} from schema ${r.from} to ${r.to}.`,
          }
        })
      case 'claim':
        return await onProject(values, rest, async (db) => {
          const queueId = optionalCount(values, 'queue')
          const count = optionalCount(values, 'count') ?? 20
          const r = await claimTriage(db, { ...(queueId === undefined ? {} : { queueId }), count })
          const { members = [] } = triageQueue(db, r.queue)
          return {
            json: { ...r, members },
            text: [
              `Claimed ${r.claimed.length} item(s) of triage queue ${r.queue} to review: ${r.claimed.join(', ') || 'none left'}.`,
              ...members.map((m) => `  ${m.member}: ${m.reviewed} of ${m.claimed} reviewed`),
            ].join('\n'),
          }
        })
      case 'member':
        return await member(values, rest)
      default:
        throw new UsageError(
          `name what to do: init, join, sync, status, upgrade, claim or member (got '${verb ?? ''}')`,
        )
    }
  },
}

function optionalCount(values: ParsedValues, name: 'queue' | 'count'): number | undefined {
  const text = values[name]
  if (text === undefined) return undefined
  const n = Number(text)
  if (typeof text !== 'string' || !Number.isInteger(n) || n < 1)
    throw new UsageError(`--${name} must be a whole number of at least 1, got '${String(text)}'`)
  return n
}

function noMore(rest: string[]): void {
  if (rest.length > 0) throw new UsageError(`unexpected '${rest.join(' ')}'`)
}

async function onProject(
  values: ParsedValues,
  rest: string[],
  work: (db: ReturnType<typeof openProject>) => Promise<CommandOutput>,
): Promise<CommandOutput> {
  noMore(rest)
  const db = openProject(requireString(values, 'db'))
  try {
    return await work(db)
  } finally {
    db.close()
  }
}

function terminalProgress(io: CommandIo): { report: TeamProgress; done(): void } {
  if (!io.interactive) return { report: () => undefined, done: () => undefined }
  const line = progressLine(io, 'items', 'rows')
  return {
    report: (step, done, total) => line.update(done, total, done, step),
    done: () => line.done(),
  }
}

async function init(values: ParsedValues, rest: string[], io: CommandIo): Promise<CommandOutput> {
  noMore(rest)
  const progress = terminalProgress(io)
  try {
    const r = await publishProject(
      requireString(values, 'db'),
      { server: requireString(values, 'server'), name: requireString(values, 'name') },
      progress.report,
    )
    return {
      json: r,
      text: `Published to ${r.server} as ${r.member} (lead): ${r.submissions} submissions, ${r.changeSets} change sets.`,
    }
  } finally {
    progress.done()
  }
}

async function join(values: ParsedValues, rest: string[], io: CommandIo): Promise<CommandOutput> {
  noMore(rest)
  const progress = terminalProgress(io)
  try {
    const r = await joinTeam(
      requireString(values, 'db'),
      { server: requireString(values, 'server'), name: requireString(values, 'name') },
      progress.report,
    )
    return {
      json: r,
      text: `Joined: ${r.submissions} submissions, ${r.annotations} annotations, ${r.changeSets} change sets (place ${r.seq}).`,
    }
  } finally {
    progress.done()
  }
}

async function member(values: ParsedValues, rest: string[]): Promise<CommandOutput> {
  const [action, ...names] = rest
  if (action === 'list') {
    return await onProject(values, names, async (db) => {
      const members = await listTeamMembers(db)
      return { json: members, text: members.map((m) => `${m.name}\t${m.role}`).join('\n') }
    })
  }
  if (action !== 'add' && action !== 'remove') {
    throw new UsageError(`team member takes add, remove or list (got '${action ?? ''}')`)
  }
  if (names.length !== 1) throw new UsageError(`team member ${action} takes one NAME`)
  const name = names[0] as string
  if (action === 'remove') {
    return await onProject(values, [], async (db) => {
      await removeTeamMember(db, name)
      return { json: { member: name, removed: true }, text: `${name} is no longer a member.` }
    })
  }
  const role = requireString(values, 'role')
  if (!TEAM_ROLES.includes(role as TeamRole)) {
    throw new UsageError(`--role must be lead, reviewer or viewer, got '${role}'`)
  }
  return await onProject(values, [], async (db) => {
    const added = await addTeamMember(db, name, role as TeamRole)
    const secret =
      added.password === null
        ? 'Their PostgreSQL role existed already and keeps its password.'
        : `Their password (shown once, stored nowhere): ${added.password}`
    return {
      json: {
        member: added.name,
        role: added.role,
        connection: added.connection,
        password: added.password,
      },
      text: `${added.name} is a ${added.role}. They join with: winnow team join --server ${added.connection} --name ${added.name} --db FILE\n${secret}`,
    }
  })
}
