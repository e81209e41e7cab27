import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs'
import { openProject } from '../../src/main/db/connection'
import { createChangeSet } from '../../src/main/db/queries/changeSets'
import { withIndexesRebuiltAfter } from '../../src/main/db/queries/bulk'
import { SubmissionWriter } from '../../src/main/db/queries/submissions'
import { reconstructImportedRatings } from '../../src/main/ratings/importTimelines'
import { indexSearchText } from '../../src/main/search/indexer'
import { generateSubmissions } from '../../src/main/synth/glucose'
import { dataDir } from './data'

/** Words every statement or rule carries (connectors, variables, function words): not searches. */
export const NOT_SEARCHED = new Set(
  'causes enables motivates results someone something somewhere people that this with from have into feel feels possess possesses wants the and was were his her their for'.split(
    ' ',
  ),
)

function ms(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6
}

/**
 * A review project of `submissions` generated submissions (seed 65521; ≈ 4.7 annotations each),
 * built once the way an import writes (indexes rebuilt after the bulk write), then cached.
 */
export function ensureProject(path: string, submissions: number): void {
  if (existsSync(path)) return
  mkdirSync(dataDir, { recursive: true })
  const partial = `${path}.partial`
  for (const s of ['', '-wal', '-shm']) rmSync(partial + s, { force: true })
  const db = openProject(partial, { create: true })
  console.log(`building ${submissions} generated submissions (cached for later runs)…`)
  const start = process.hrtime.bigint()
  db.transaction(() => {
    const changeSet = createChangeSet(db, {
      kind: 'import',
      author: 'bench',
      description: 'synthetic',
    })
    const writer = new SubmissionWriter(db, changeSet.id, null)
    withIndexesRebuiltAfter(db, submissions * 5, () => {
      for (const s of generateSubmissions({ count: submissions, seed: 65521 })) writer.write(s)
      writer.finish()
    })
    // Like an import: the generated ratings become worker timelines, nothing left pending.
    reconstructImportedRatings(db, changeSet, 'bench')
  })()
  indexSearchText(db)
  console.log(`  built in ${(ms(start) / 1000).toFixed(0)} s`)
  db.pragma('wal_checkpoint(TRUNCATE)')
  db.close()
  renameSync(partial, path)
}
