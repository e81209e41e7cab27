import { UserError } from '../../../shared/contract/errors'
import { type CollectionTeam, sharedTable as t } from '../team'
import {
  type HalieRatingKey,
  type SharedHalieRatingKey,
  localHalieRatingKey,
  sharedHalieRatingKey,
} from './db/ratings'
import {
  type ChangedSession,
  applyChangedSession,
  changedSessionWorkers,
  changedSessionsOf,
  reapplyChangedSessions,
} from './db/changedSessions'

/**
 * HALIE's share of a team: sessions, their tables' rows, scores and raw logs. Its imports made
 * after publishing travel (their rows take ids from the replica's band); a rating entry names its
 * session or block by task and external id or line, which every replica shares.
 */
export const halieTeam: CollectionTeam = {
  tables: [
    t(
      'halie_sessions',
      [
        ['id', 'int'],
        ['task', 'text'],
        ['external_id', 'text'],
        ['worker_id', 'int'],
        ['model', 'text'],
        ['prompt', 'text'],
        ['blocks', 'int'],
        ['queries', 'int'],
        ['elapsed_minutes', 'real'],
        ['accuracy', 'real'],
        ['metadata', 'text'],
        ['change_set_uid', 'uid'],
        ['rating', 'real'],
        ['started_at', 'int'],
      ],
      { worker: 'worker_id' },
    ),
    t(
      'halie_tables',
      [
        ['id', 'int'],
        ['task', 'text'],
        ['kind', 'text'],
        ['header', 'text'],
        ['source_file_id', 'int'],
      ],
      { owner: { column: 'source_file_id', table: 'source_files' } },
    ),
    t(
      'halie_rows',
      [
        ['id', 'int'],
        ['table_id', 'int'],
        ['line', 'int'],
        ['session_id', 'int'],
        ['cells', 'text'],
        ['rating', 'real'],
      ],
      { owner: { column: 'table_id', table: 'halie_tables' } },
    ),
    t(
      'halie_scores',
      [
        ['session_id', 'int'],
        ['name', 'text'],
        ['value', 'real'],
      ],
      { key: ['session_id', 'name'], owner: { column: 'session_id', table: 'halie_sessions' } },
    ),
    t(
      'halie_logs',
      [
        ['id', 'int'],
        ['session_id', 'int'],
        ['source_file_id', 'int'],
        ['events', 'int'],
        ['duration_ms', 'int'],
      ],
      { owner: { column: 'source_file_id', table: 'source_files' } },
    ),
    t(
      'halie_log_events',
      [
        ['log_id', 'int'],
        ['seq', 'int'],
        ['line', 'text'],
      ],
      { key: ['log_id', 'seq'], owner: { column: 'log_id', table: 'halie_logs' } },
    ),
  ],
  importFormats: ['halie-event-blocks', 'halie-survey-responses', 'halie-accuracies', 'halie-log'],
  // Figures, scores, keys, metadata and a start an import set in sessions imported before.
  earlier: {
    name: 'halie.sessions',
    encode(db, changeSetId) {
      const changed = changedSessionsOf(db, changeSetId)
      return changed.length === 0 ? null : changed
    },
    apply(db, changeSetId, changes: readonly ChangedSession[]) {
      for (const change of changes) {
        if (!applyChangedSession(db, changeSetId, change)) {
          throw new UserError({
            type: 'conflict',
            code: 'not-shared',
            message: `The team's log changes a HALIE session this replica lacks (${change.task} ${change.externalId}).`,
          })
        }
      }
    },
    reapply: reapplyChangedSessions,
    workers: changedSessionWorkers,
  },
  entryKeys: {
    subject: 'halie.rating',
    toShared(db, key) {
      const shared = sharedHalieRatingKey(db, key as HalieRatingKey)
      if (!shared) throw new Error(`a HALIE rating of ${JSON.stringify(key)}, which is not held`)
      return shared
    },
    toLocal(db, key) {
      const local = localHalieRatingKey(db, key as SharedHalieRatingKey)
      if (!local) {
        throw new UserError({
          type: 'conflict',
          code: 'not-shared',
          message: `The team's log rates a HALIE item this replica lacks (${JSON.stringify(key)}).`,
        })
      }
      return local
    },
  },
}
