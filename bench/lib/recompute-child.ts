// A full recomputation of the effective ratings in a process of its own (the app runs it as a
// job; the CLI has no command for it): prints its peak RSS in KB. The caller wipes the cache.
//   node --import tsx bench/lib/recompute-child.ts PROJECT [--idle]
import { openProject } from '../../src/main/db/connection'
import { recomputeEverything } from '../../src/main/ratings/effective'

const [path] = process.argv.slice(2)
if (path === undefined) throw new Error('recompute-child PROJECT [--idle]')
if (!process.argv.includes('--idle')) {
  const db = openProject(path, { memoryMap: false })
  recomputeEverything(db)
  db.close()
}
console.log(process.resourceUsage().maxRSS)
