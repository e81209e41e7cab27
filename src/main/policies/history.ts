import { UserError } from '../../shared/contract/errors'
import type { PolicyRunDetail } from '../../shared/contract/policies'
import type { Db } from '../db/connection'
import { policyRunByChangeSet } from '../db/queries/policies'

/** What a policy change set was made from, for History. */
export function policyRunDetail(db: Db, changeSetId: number): PolicyRunDetail {
  const row = policyRunByChangeSet(db, changeSetId)
  if (!row) {
    throw new UserError({
      type: 'not-found',
      code: 'no-such-policy-run',
      message: `Change set ${changeSetId} is not a policy run.`,
    })
  }
  return {
    changeSet: row.changeSetId,
    name: row.name,
    fileName: row.fileName,
    sha256: row.sha256,
    script: row.script,
    params: JSON.parse(row.params) as PolicyRunDetail['params'],
    report: JSON.parse(row.report) as PolicyRunDetail['report'],
  }
}
