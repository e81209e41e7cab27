import { UserError } from '../../../shared/contract/errors'
import type { Db } from '../../db/connection'
import {
  type SharedClustering,
  clusteringsOfChangeSet,
  holdsClusteringsOf,
  insertSharedClustering,
} from './db/clusterings'

/**
 * How a ProtoQA clustering or adjudication (a `protoqa` change set) travels in a team's log:
 * named by question and answer texts, written on another replica as a clustering of that
 * replica's change set. A join that brought it with the tables writes it once.
 */
export const protoqaCodec = {
  encode: (db: Db, changeSetId: number): { clusterings: SharedClustering[] } => ({
    clusterings: clusteringsOfChangeSet(db, changeSetId),
  }),
  apply(db: Db, change: { id: number }, payload: { clusterings: SharedClustering[] }): void {
    if (holdsClusteringsOf(db, change.id)) return
    for (const clustering of payload.clusterings) {
      if (!insertSharedClustering(db, change.id, clustering)) {
        throw new UserError({
          type: 'conflict',
          code: 'not-shared',
          message: `The team's log holds a clustering of ProtoQA question ${clustering.question}, whose question or answers this replica lacks.`,
        })
      }
    }
  },
}
