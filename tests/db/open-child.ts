import { openProject } from '../../src/main/db/connection'

/** Opens (and so migrates) the project named on the command line; prints `ok` or the error. */
const path = process.argv[2] ?? ''
process.stdout.write('opening\n')
try {
  openProject(path).close()
  process.stdout.write('ok\n')
} catch (error) {
  process.stdout.write(`error: ${error instanceof Error ? error.message : String(error)}\n`)
}
