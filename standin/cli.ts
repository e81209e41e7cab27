/**
 * `npx tsx standin/cli.ts [--demo] [--port N] [--faults 0.2] [--seed N] [--hits N] [--per-hit N]
 * [--latency MS] [--quiet]` (`npm run mturk:standin` adds `--demo`): serves the stand-in until
 * interrupted, optionally with demo HITs, injected faults, or a delay on every answer. The default
 * port is fixed so the endpoint saved in Settings keeps working.
 */
import { type ParseArgsConfig, parseArgs } from 'node:util'
import { type Standin, createStandin, faultMix, seedDemo } from './index'

const DEFAULT_PORT = 4466
const USAGE =
  'usage: mturk-standin [--demo] [--port N] [--faults 0..1] [--seed N] [--hits N] [--per-hit N] [--latency MS] [--quiet]'

const config = {
  options: {
    demo: { type: 'boolean', default: false },
    port: { type: 'string' },
    faults: { type: 'string', default: '0' },
    seed: { type: 'string', default: '1' },
    hits: { type: 'string', default: '40' },
    'per-hit': { type: 'string', default: '9' },
    quiet: { type: 'boolean', default: false },
    latency: { type: 'string', default: '0' },
  },
} satisfies ParseArgsConfig

// A mistyped option is a usage error (exit 2), not a stack trace.
let parsed: ReturnType<typeof parseArgs<typeof config>>
try {
  parsed = parseArgs(config)
} catch (e) {
  console.error(`${(e as Error).message}\n${USAGE}`)
  process.exit(2)
}
const { values } = parsed

const numbers = {
  port: values.port === undefined ? DEFAULT_PORT : Number(values.port),
  rate: Number(values.faults),
  seed: Number(values.seed),
  hits: Number(values.hits),
  perHit: Number(values['per-hit']),
  latency: Number(values.latency),
}
const { port, rate, seed, hits, perHit, latency } = numbers
if (
  ![port, seed, hits, perHit, latency].every((n) => Number.isInteger(n) && n >= 0) ||
  !(rate >= 0 && rate <= 1)
) {
  console.error(USAGE)
  process.exit(2)
}

// --latency MS delays every answer, like a distant service (benchmarks).
const options = {
  faults: rate > 0 ? faultMix(rate, seed) : latency > 0 ? { slow: 1, delayMs: latency } : {},
  ...(values.quiet ? {} : { log: (line: string) => console.log(line) }),
}
let standin: Standin
try {
  standin = await createStandin({ ...options, port })
} catch (e) {
  // Only the default port falls back to a free one; an explicit --port must be honoured.
  if ((e as { code?: string }).code !== 'EADDRINUSE' || values.port !== undefined) throw e
  console.log(`port ${port} is busy; using a free one`)
  standin = await createStandin({ ...options, port: 0 })
}
if (values.demo) {
  const seeded = seedDemo(standin.state, { hits, assignmentsPerHit: perHit, brokenEvery: 97 })
  console.log(`demo: ${seeded.hits.length} HITs, ${seeded.assignments.length} assignments`)
}
if (rate > 0) console.log(`injecting faults at ${rate} (seed ${seed})`)
console.log(`MTurk stand-in listening on ${standin.url}`)
console.log('Use it as a custom endpoint with any access key pair (region us-east-1).')

const stop = (): void => {
  void standin.close().then(() => process.exit(0))
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
