/**
 * Runs an export in this process and kills it (SIGKILL) when it reaches a step of putting the
 * release in place: `node --import tsx exportUntil.ts PROJECT OUT STEP[#N] [force] [tiers]`.
 * The crash tests run it as a child, so what is left on disk is what a kill -9 leaves.
 */
import { openProject } from '../../src/main/db/connection'
import { exportRelease } from '../../src/main/release/export'
import { releaseOptionsSchema } from '../../src/shared/contract/release'

const [project = '', out = '', at = '', force = '', tiers = ''] = process.argv.slice(2)
const [step, nth = '1'] = at.split('#')
let seen = 0
const db = openProject(project)
exportRelease(
  db,
  project,
  releaseOptionsSchema.parse({
    out,
    force: force === 'force',
    ...(tiers ? { tiers: tiers.split(',').map(Number) } : {}),
  }),
  {
    progress: () => undefined,
    cancelled: () => false,
    reached: (s) => {
      if (s === step && ++seen === Number(nth)) process.kill(process.pid, 'SIGKILL')
    },
  },
)
db.close()
// Not killed: the step was never reached, which the test reports.
process.exit(3)
