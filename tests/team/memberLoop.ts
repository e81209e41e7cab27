import { judge } from '../../src/main/audits/audits'
import { runCli } from '../../src/main/cli/index'
import { openProject } from '../../src/main/db/connection'
import { markAnnotation } from '../../src/main/triage/queue'

/**
 * One team member at work, for the concurrency test: for `seconds`, rates an annotation (through
 * the command line), marks one of the replica's triage queue or judges an item of its audit, and
 * syncs after each. Run as its own process: `memberLoop.ts DB SECONDS SEED NAME`. Prints how many
 * change sets it made, as JSON, when it ends.
 */
const [db, secondsText, seedText, name] = process.argv.slice(2) as [string, string, string, string]
const until = Date.now() + Number(secondsText) * 1000
let seed = Number(seedText)
const random = (n: number): number => {
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed % n
}
const quiet = {
  stdout: () => undefined,
  stderr: (t: string) => process.stderr.write(t),
  interactive: false,
}
const pick = <T>(list: readonly T[]): T => list[random(list.length)] as T

const project = openProject(db)
const queueId = project.prepare('SELECT min(id) FROM triage_queues').pluck().get() as number
const auditId = project.prepare('SELECT min(id) FROM audits').pluck().get() as number
// Few targets, so the members often set the same one.
const queued = project
  .prepare(
    `SELECT a.id FROM triage_items i JOIN annotations a ON a.id >> 4 = i.submission_id
     WHERE i.queue_id = ? ORDER BY a.id LIMIT 6`,
  )
  .pluck()
  .all(queueId) as number[]
const audited = project
  .prepare('SELECT annotation_id FROM audit_items WHERE audit_id = ? ORDER BY position LIMIT 6')
  .pluck()
  .all(auditId) as number[]
const changeSets = project.prepare('SELECT count(*) FROM change_sets').pluck()
const count = (): number => changeSets.get() as number

let made = 0
while (Date.now() < until) {
  const before = count()
  const action = random(3)
  if (action === 0) {
    const rating = pick(['3', '2', '1', '0', '-1', '-2'])
    const annotation = String(pick(queued))
    const argv = ['rate', '--db', db, '--annotation', annotation, '--rating', rating]
    if ((await runCli(argv, quiet)) !== 0) process.exit(1)
  } else if (action === 1) {
    const mark = pick(['good', 'needs-work', 'bad', null] as const)
    markAnnotation(project, { queueId, annotationId: pick(queued), mark, author: name })
  } else {
    const verdict = pick(['yes', 'no', 'skip', null] as const)
    judge(project, { auditId, annotationId: pick(audited), verdict, author: name })
  }
  made += count() - before
  if ((await runCli(['team', 'sync', '--db', db], quiet)) !== 0) process.exit(1)
}
project.close()
process.stdout.write(JSON.stringify({ made }))
