// Runs one import in a process of its own, so its peak memory is the import's alone.
import { openProject } from '../../src/main/db/connection'
import { importFiles } from '../../src/main/importers/run'

const [csv, project] = process.argv.slice(2)
if (!csv || !project) throw new Error('usage: import-child CSV PROJECT')
const db = openProject(project, { create: true })
const start = process.hrtime.bigint()
const result = importFiles(db, [{ path: csv }])
const seconds = Number(process.hrtime.bigint() - start) / 1e9
db.close()
process.stdout.write(
  JSON.stringify({
    seconds,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    annotations: result.annotations,
  }),
)
