// The import's floor: the rows of a file, read and checked beforehand (not timed), written by the
// same writer into a fresh project with the annotation indexes and the rating trigger dropped and
// no per-row foreign-key checks, then the indexes rebuilt and the transaction committed. No
// reading, no ratings, one thread.
import { openProject, withPragmas } from '../../src/main/db/connection'
import { withIndexesRebuiltAfter, withoutPendingTrigger } from '../../src/main/db/queries/bulk'
import { createChangeSet } from '../../src/main/db/queries/changes/sets'
import { SubmissionWriter } from '../../src/main/db/queries/submissions'
import { openGlucoseFile } from '../../src/main/importers/glucose/open'
import { IMPORT_PRAGMAS } from '../../src/main/importers/run'
import { seconds } from './measure'

const [csv, project] = process.argv.slice(2)
if (!csv || !project) throw new Error('usage: floor-child CSV PROJECT')
const rows = [...openGlucoseFile(csv).records()]
const db = openProject(project, { create: true })
let inserts = 0
let indexes = 0
const start = process.hrtime.bigint()
// With the connection set as `importFiles` sets it.
withPragmas(db, IMPORT_PRAGMAS, () =>
  db.transaction(() => {
    const changeSet = createChangeSet(db, { kind: 'import', author: 'bench', description: 'floor' })
    withIndexesRebuiltAfter(db, Number.MAX_SAFE_INTEGER, () =>
      withoutPendingTrigger(db, () => {
        const writer = new SubmissionWriter(db, changeSet.id, null)
        for (const row of rows) writer.write(row)
        writer.finish()
        inserts = seconds(start)
      }),
    )
    indexes = seconds(start) - inserts
  })(),
)
const total = seconds(start)
db.close()
process.stdout.write(JSON.stringify({ inserts, indexes, commit: total - inserts - indexes, total }))
