import { createHash } from 'node:crypto'
import { readFileSync, readdirSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { parse } from 'csv-parse/sync'
import { openProject } from '../../src/main/db/connection'
import { importFiles } from '../../src/main/importers/run'
import type { ImportedSubmission } from '../../src/main/importers/types'
import { writeReleaseCsv } from '../helpers/csv-writers'
import { generateSubmissions } from '../../src/main/synth/glucose'
import { exportRelease } from '../../src/main/release/export'
import type { ReleaseStep } from '../../src/main/release/partial'
import { saveReleaseSettings } from '../../src/main/release/settings'
import {
  type ParsedReleaseOptions,
  type ReleaseCard,
  type ReleaseOptions,
  type ReleaseResult,
  releaseOptionsSchema,
} from '../../src/shared/contract/release'

/** A dataset card without placeholders, as a release owner fills it in. */
export const TEST_CARD: ReleaseCard = {
  name: 'Test release',
  description: 'Generated GLUCOSE-like submissions released in tiers.',
  license: 'cc-by-4.0',
  url: 'https://datasets.winnow.dev/test-release',
  creator: 'The Winnow test suite',
}

/** Generated submissions rated 1, 2 or 3 (a release's tiers), seeded. */
export function releaseSubmissions(count: number, seed: number): ImportedSubmission[] {
  return [...generateSubmissions({ count, seed })].map((s, i) => ({
    ...s,
    fileRating: [3, 2, 1][(i * 7 + seed) % 3] ?? 3,
  }))
}

/** A project imported from a release-layout CSV; returns the paths. */
export function releaseProject(
  dir: string,
  submissions: readonly ImportedSubmission[],
): { db: string; csv: string } {
  const csv = join(dir, 'input.csv')
  writeReleaseCsv(csv, submissions, { workerStyle: 'int', ratingStyle: 'int' })
  const db = join(dir, 'p.winnow')
  const project = openProject(db, { create: true })
  try {
    importFiles(project, [{ path: csv }], {})
    // A project that is released says who made it and where it lives (a placeholder is refused).
    saveReleaseSettings(project, db, { card: TEST_CARD }, 'test')
  } finally {
    project.close()
  }
  return { db, csv }
}

function options(input: ReleaseOptions): ParsedReleaseOptions {
  return releaseOptionsSchema.parse(input)
}

/** Exports in this thread, as the job does where no worker is built. */
export function exportNow(
  dbPath: string,
  input: ReleaseOptions,
  hooks: {
    cancelled?: () => boolean
    progress?: (done: number, step?: string) => void
    reached?: (step: ReleaseStep) => void
  } = {},
): ReleaseResult {
  const db = openProject(dbPath)
  try {
    return exportRelease(db, dbPath, options(input), {
      progress: (done, _total, step) => hooks.progress?.(done, step),
      cancelled: hooks.cancelled ?? (() => false),
      ...(hooks.reached ? { reached: hooks.reached } : {}),
    })
  } finally {
    db.close()
  }
}

export function readCsv(path: string): string[][] {
  const rows: string[][] = parse(readFileSync(path, 'utf8'))
  return rows
}

/** Hidden partial folders beside a release folder. */
export function partialsBeside(out: string): string[] {
  return readdirSync(dirname(out)).filter((name) => name.startsWith(`.${basename(out)}.partial-`))
}

/** The release at `out` is whole: every file its manifest names is there with its SHA-256. */
export function wholeRelease(out: string): { tiers: number[]; createdAt: string } {
  const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as {
    createdAt: string
    settings: { tiers: number[] }
    files: { path: string; sha256: string }[]
    documents: { path: string; sha256: string }[]
  }
  for (const f of [...manifest.files, ...manifest.documents]) {
    const hash = createHash('sha256')
      .update(readFileSync(join(out, f.path)))
      .digest('hex')
    if (hash !== f.sha256) throw new Error(`${f.path} in ${out} is not the file its manifest names`)
  }
  return { tiers: manifest.settings.tiers, createdAt: manifest.createdAt }
}
