import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { writeSynthetic } from '../../src/main/importers/synthetic'
import { applyPolicy, dryRunPolicy } from '../../src/main/policies/run'
import { rateWorker } from '../../src/main/ratings/rate'
import { shippedPolicy } from '../policies/helpers'
import { day, newProject } from '../ratings/helpers'
import { useTempDir } from '../helpers/tmp'
import { saveReleaseSettings } from '../../src/main/release/settings'
import { TEST_CARD, exportNow } from './helpers'

// A release names the policies that shaped its ratings: name, the script's hash, the change set.
describe('a release after a policy', () => {
  const tempDir = useTempDir()

  it('names the policy, its script hash and its change set in the datasheet and manifest', async () => {
    const dir = tempDir()
    const db = newProject(dir)
    writeSynthetic(db, { submissions: 400, seed: 4 })
    const workerId = db
      .prepare('SELECT id FROM workers ORDER BY id LIMIT 1')
      .pluck()
      .get() as number
    rateWorker(db, { workerId, value: -2, from: day('2000-01-01'), author: 't' })
    const source = shippedPolicy('glucose-cleanup.ts')
    const fileName = 'policies/glucose-cleanup.ts'
    const report = await dryRunPolicy(db, { source, fileName })
    const applied = await applyPolicy(db, { source, fileName, basis: report.basis, author: 'lead' })
    saveReleaseSettings(db, join(dir, 'p.winnow'), { card: TEST_CARD }, 'lead')
    db.close()

    const hash = createHash('sha256').update(source).digest('hex')
    const out = join(dir, 'release')
    const result = exportNow(join(dir, 'p.winnow'), { out })
    const row = result.datasheet.split('\n').find((line) => line.includes(hash))
    expect(row).toBeDefined()
    expect(row).toMatch(new RegExp(`^\\| ${applied.changeSet ?? 0} \\| `))
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as {
      changeSets: { id: number; policy?: { sha256: string } }[]
    }
    expect(manifest.changeSets.find((c) => c.id === applied.changeSet)?.policy?.sha256).toBe(hash)
  })
})
