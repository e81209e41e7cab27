import type { HalieTable, HalieTask } from './tasks'

/** A closed range; either end may be open. */
export interface Range {
  min?: number | undefined
  max?: number | undefined
}

/** The sessions grid's filter: different fields AND, values within a list OR. */
export interface SessionFilter {
  tasks?: HalieTask[]
  workers?: string[]
  models?: string[]
  /** Sessions whose prompt holds this text (case-insensitive). */
  prompt?: string | undefined
  /** Survey score ranges, by score name; a session without that score is left out. */
  scores?: { name: string; min?: number | undefined; max?: number | undefined }[]
  /** Minutes, as the tables give `elapsed_time`, summed over the session's blocks. */
  elapsed?: Range | undefined
  queries?: Range | undefined
  accuracy?: Range | undefined
  /** Only sessions with a raw log (replayable). */
  withLog?: boolean | undefined
}

export const SESSION_SORTS = [
  'task',
  'session',
  'worker',
  'model',
  'prompt',
  'blocks',
  'queries',
  'elapsed',
  'accuracy',
  'events',
] as const
export type SessionSort = (typeof SESSION_SORTS)[number]

export interface SessionRow {
  id: number
  task: HalieTask
  session: string
  worker: string | null
  model: string | null
  prompt: string | null
  blocks: number
  queries: number
  elapsedMinutes: number | null
  accuracy: number | null
  scores: Record<string, number>
  /** Events in its raw log; 0 without one. */
  events: number
  workerId: number | null
  /** The effective rating: the session's own, else its worker's at the session's start. */
  rating: number | null
  ratingSource: 'item' | 'worker' | null
}

export interface SessionPage {
  total: number
  rows: SessionRow[]
}

export interface SessionTable {
  kind: HalieTable
  header: string[]
  /** `id` names the row (an event block is rated by it); `rating` is its own item rating. */
  rows: { id: number; line: number; cells: string[]; rating: number | null }[]
}

export interface SessionDetail {
  row: SessionRow
  tables: SessionTable[]
  /** The session metadata JSON line, where imported. */
  metadata: string | null
  durationMs: number | null
}

export interface SessionChoices {
  tasks: HalieTask[]
  models: string[]
  scores: string[]
}

/** Per task and model (`winnow halie stats`, the charts). */
export interface ModelFigures {
  task: HalieTask
  model: string
  sessions: number
  blocks: number
  queries: number
  /** Mean minutes per session. */
  elapsedMinutes: number | null
  accuracy: number | null
  scores: Record<string, number>
}
