// One team member for the team benchmark: rates an annotation ten times a second for `seconds`,
// pushing each rating at once over one open connection (as the app does), and prints each push's
// time in ms as JSON. `team-member.ts DB SECONDS SEED`.
import { openProject } from '../../src/main/db/connection'
import { sql } from '../../src/main/db/sql'
import { rateItems } from '../../src/main/ratings/rate'
import { closeServer } from '../../src/main/team/server'
import { openTeamServer, push, requireTeam } from '../../src/main/team/sync'

const [path, secondsText, seedText] = process.argv.slice(2) as [string, string, string]
const db = openProject(path)
const state = requireTeam(db)
const server = await openTeamServer(state)
const ids = db
  .prepare('SELECT id FROM annotations ORDER BY id LIMIT 1000')
  .pluck()
  .all() as number[]
let seed = Number(seedText)
const latencies: number[] = []
const until = Date.now() + Number(secondsText) * 1000
let next = Date.now()
while (Date.now() < until) {
  seed = (seed * 1103515245 + 12345) % 2147483648
  const id = ids[seed % ids.length] ?? 0
  rateItems(
    db,
    { annotations: sql`SELECT ${id} AS id`, kind: 'manual', what: `annotation ${id}` },
    { author: state.member, value: (seed % 5) - 2 },
  )
  const start = performance.now()
  await push(db, server)
  latencies.push(performance.now() - start)
  next += 100
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - Date.now())))
}
await closeServer(server)
db.close()
process.stdout.write(JSON.stringify(latencies))
