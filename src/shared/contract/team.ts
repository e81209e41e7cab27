import { z } from 'zod'
import { call, event } from './define'
import type { JobProgress } from './jobs'

/** Where an open team project stands, as the status bar shows it. */
export interface TeamLiveStatus {
  /** The server's URL without its password. */
  server: string
  member: string
  role: 'lead' | 'reviewer' | 'viewer'
  /** `connecting` until the first answer; `offline` while the server cannot be reached. */
  connection: 'connecting' | 'online' | 'offline'
  /** Change sets waiting in the project file to be pushed. */
  pending: number
  /** When the app last reached the server (epoch ms), null if never since the project opened. */
  lastContact: number | null
  /** Other members with the team's project open in an app now. */
  others: string[]
  /** Why pending work does not go (a push the server refused), in a sentence; null when none. */
  problem: string | null
  /**
   * The change set the server refused, which holds back what came after it; reverting it here
   * (`team.withdraw`) keeps it and its revert on this replica and lets the rest go. Null when none.
   */
  refused: { changeSetId: number; description: string } | null
  /** The server's schema is older than this Winnow's and this member, a lead, may upgrade it. */
  upgrade: boolean
}

const serverUrl = z.string().trim().min(1, 'give the server address').max(2048)
const memberName = z
  .string()
  .trim()
  .regex(/^[A-Za-z_][A-Za-z0-9_.-]{0,62}$/, 'a PostgreSQL role name: letters, digits, _ . -')
/** Typed in the desktop app's dialog only; kept encrypted by the system keychain, never in a file. */
const password = z.string().min(1).max(1024).optional()

export const teamCalls = {
  'team.status': call(z.object({})).returns<TeamLiveStatus | null>(),
  /** Publishes the open project to an empty database (File ▸ Share with a team…). */
  'team.share': call(z.object({ server: serverUrl, name: memberName, password })).returns<{
    status: TeamLiveStatus | null
    changeSets: number
    submissions: number
  }>(),
  /** Starts joining a team into a new project file (a job); the app opens it when it is made. */
  'team.join': call(
    z.object({ server: serverUrl, name: memberName, path: z.string().min(1).max(4096), password }),
  ).returns<JobProgress>(),
  /**
   * Reverts the change set the server refused, here only: it and its revert never go to the
   * server, and the pending work after it pushes. Answers the status after.
   */
  'team.withdraw': call(
    z.object({ changeSetId: z.number().int().positive() }),
  ).returns<TeamLiveStatus | null>(),
  /** A lead upgrades the team's server to this Winnow's schema (the status bar's Upgrade). */
  'team.upgrade': call(z.object({})).returns<{ server: string; from: number; to: number }>(),
  /** Electron only: a native Save dialog for the new replica's file. Null when cancelled. */
  'team.pickJoinPath': call(z.object({})).returns<string | null>(),
}

export const teamEvents = {
  /** The open team project's status changed (null: the open project is not a team's). */
  'team.status': event<TeamLiveStatus | null>(),
}
