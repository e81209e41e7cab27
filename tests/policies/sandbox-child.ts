// Runs one policy's rules in the sandbox, in a process of its own, and prints what stopped it
// and the process's peak resident memory: tests spawn this file to see the whole process's peak.
//   node --import tsx tests/policies/sandbox-child.ts MEMORY_MB < policy.ts
import { readFileSync } from 'node:fs'
import { DEFAULT_LIMITS, PolicySandbox } from '../../src/main/policies/sandbox'

const memoryBytes = Number(process.argv[2]) * 2 ** 20
const facts = JSON.stringify({
  scale: [],
  ratings: [],
  workers: [],
  audits: [],
  firstSubmission: null,
  lastSubmission: null,
})
let outcome: unknown
try {
  const sandbox = await PolicySandbox.load(readFileSync(0, 'utf8'), 'bomb.ts', {
    ...DEFAULT_LIMITS,
    memoryBytes,
  })
  try {
    outcome = { returned: sandbox.rules(facts, '{}') }
  } finally {
    sandbox.dispose()
  }
} catch (error) {
  outcome = (error as { info?: unknown }).info ?? { thrown: String(error) }
}
process.stdout.write(JSON.stringify({ outcome, peakBytes: process.resourceUsage().maxRSS * 1024 }))
