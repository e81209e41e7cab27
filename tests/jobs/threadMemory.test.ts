import { once } from 'node:events'
import { describe, expect, it } from 'vitest'
import { startThread } from '../../src/main/jobs/threadScript'

// Memory itself is measured by the memory benchmark, not asserted here: these check that every
// thread of a long job is started with the small young generation that keeps its peak down.
describe('threads of long jobs', () => {
  const code = `const { parentPort, resourceLimits } = require('node:worker_threads')
    parentPort.postMessage(resourceLimits)`

  it('start with a small young generation', async () => {
    const worker = startThread({ code, eval: true }, {})
    const [limits] = (await once(worker, 'message')) as [{ maxYoungGenerationSizeMb: number }]
    await worker.terminate()
    expect(limits.maxYoungGenerationSizeMb).toBeGreaterThan(0)
    expect(limits.maxYoungGenerationSizeMb).toBeLessThanOrEqual(8)
  })

  it('keep a limit their caller sets', async () => {
    const worker = startThread(
      { code, eval: true },
      { resourceLimits: { maxYoungGenerationSizeMb: 12 } },
    )
    const [limits] = (await once(worker, 'message')) as [{ maxYoungGenerationSizeMb: number }]
    await worker.terminate()
    expect(limits.maxYoungGenerationSizeMb).toBe(12)
  })
})
