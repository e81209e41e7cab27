import type { RatingLevel } from '../../shared/contract/ratings'
import type {
  ParsedReleaseOptions,
  ReleaseCard,
  ReleaseFile,
  TierStep,
} from '../../shared/contract/release'
import type { ChangeSetRecord, SourceFileRecord } from '../db/queries/release/rows'
import type { ReleasedAudit } from './audits'
import type { ReleaseTally } from './tally'

/** Everything the release's documents state, gathered once by the export. */
export interface ReleaseFacts {
  winnowVersion: string
  projectName: string
  /** Epoch ms. */
  createdAt: number
  card: ReleaseCard
  options: ParsedReleaseOptions
  tierMap: TierStep[]
  tiers: number[]
  scale: RatingLevel[]
  files: ReleaseFile[]
  tally: ReleaseTally
  split: { candidates: number; test: number; dev: number } | null
  changeSets: ChangeSetRecord[]
  /** In a team project, the members who pushed the change sets listed (by name); else absent. */
  teamMembers?: string[]
  audits: ReleasedAudit[]
  inputs: SourceFileRecord[]
  /** Epoch ms of the ratings the release reflects; null when nothing was ever rated. */
  ratingSnapshot: number | null
  /** The scope in words ("all annotations", or the filter's chips). */
  scope: string
}

export const ROW_ORDER =
  'Rows are in the order of their submissions in the project (the order they were imported); ' +
  'a submission whose annotations fall into several tiers gives one row in each tier file, ' +
  'holding that tier’s dimensions.'

export function isoTime(epochMs: number | null | undefined): string | null {
  return epochMs === null || epochMs === undefined ? null : new Date(epochMs).toISOString()
}
