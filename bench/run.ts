// `npm run bench -- [name…] [--flag…]`: runs each bench/<name>.bench.ts whose name starts with one
// of the names (all without names) in its own process (so peak memory is per benchmark), passing
// it the flags, and prints what each measured. Every figure is a ratio against a reference run in
// the same script, because these machines are noisy.
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const args = process.argv.slice(2)
// Names first, then the flags with their values (`--scale 10m`).
const firstFlag = args.findIndex((a) => a.startsWith('--'))
const wanted = firstFlag < 0 ? args : args.slice(0, firstFlag)
const flags = firstFlag < 0 ? [] : args.slice(firstFlag)
const benches = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)))
  .sort()

let failed = 0
for (const file of benches) {
  console.log(`\n=== ${file}`)
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--expose-gc', join(here, file), ...flags],
    { stdio: 'inherit' },
  )
  if (result.status !== 0) failed++
}
process.exit(failed === 0 ? 0 : 1)
