import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs'
import { openProject } from '../../src/main/db/connection'
import { writeSynthetic } from '../../src/main/importers/synthetic'
import { saveReleaseSettings } from '../../src/main/release/settings'
import { dataDir } from './data'

/** Words every statement or rule carries (connectors, variables, function words): not searches. */
export const NOT_SEARCHED = new Set(
  'causes enables motivates results someone something somewhere people that this with from have into feel feels possess possesses wants the and was were his her their for'.split(
    ' ',
  ),
)

function ms(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6
}

/**
 * A review project of `submissions` generated submissions (seed 65521; ≈ 4.7 annotations each),
 * written as `winnow synth` writes it (indexes rebuilt after the bulk write, ratings reconstructed
 * into worker timelines), then cached.
 */
export function ensureProject(path: string, submissions: number): void {
  if (existsSync(path)) return
  mkdirSync(dataDir, { recursive: true })
  const partial = `${path}.partial`
  for (const s of ['', '-wal', '-shm']) rmSync(partial + s, { force: true })
  const db = openProject(partial, { create: true })
  console.log(`building ${submissions} generated submissions (cached for later runs)…`)
  const start = process.hrtime.bigint()
  writeSynthetic(db, { submissions, seed: 65521, description: 'synthetic' })
  console.log(`  built in ${(ms(start) / 1000).toFixed(0)} s`)
  db.pragma('wal_checkpoint(TRUNCATE)')
  db.close()
  renameSync(partial, path)
}

/** Every rating of the collection scale in a tier, so that a release exports the whole project. */
export const EVERY_RATING_TIERED = [
  { rating: 3, tier: 3 },
  { rating: 2, tier: 2 },
  { rating: 1.5, tier: 1 },
  { rating: 1, tier: 1 },
  { rating: 0, tier: 0 },
  { rating: -1, tier: 0 },
  { rating: -2, tier: 0 },
]

/** Saves the tier map that releases every annotation of `path`; returns how many there are. */
export function releaseEveryAnnotation(path: string): number {
  const db = openProject(path)
  try {
    saveReleaseSettings(db, path, { tierMap: EVERY_RATING_TIERED }, 'bench')
    return db.prepare('SELECT count(*) FROM annotations').pluck().get() as number
  } finally {
    db.close()
  }
}
