import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openProject } from '../../src/main/db/connection'
import { saveReleaseSettings } from '../../src/main/release/settings'
import { previewRelease } from '../../src/main/release/preview'
import {
  type ReleaseOptions,
  type ReleasePreview,
  releasePreviewSchema,
} from '../../src/shared/contract/release'
import { cli } from '../helpers/cli'
import { useTempDir } from '../helpers/tmp'
import { exportNow, releaseProject, releaseSubmissions } from './helpers'

const tempDir = useTempDir()

/** The datasheet's "Counts per tier and split" table, as the preview's parts. */
function datasheetCounts(datasheet: string): ReleasePreview['parts'] {
  const lines = datasheet.split('\n')
  const start = lines.indexOf('## Counts per tier and split')
  const rows: ReleasePreview['parts'] = []
  for (const line of lines.slice(start + 4)) {
    if (!line.startsWith('|')) break
    const [tier, part, rowsN, annotations, workers, stories] = line
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim())
    rows.push({
      tier: Number(tier),
      part: part === '(no split)' ? 'all' : (part as 'train' | 'dev' | 'test'),
      rows: Number(rowsN),
      annotations: Number(annotations),
      stories: Number(stories),
      workers: Number(workers),
    })
  }
  return rows
}

function preview(db: string, options: Omit<ReleaseOptions, 'out'>): ReleasePreview {
  const project = openProject(db)
  try {
    return previewRelease(project, releasePreviewSchema.parse(options))
  } finally {
    project.close()
  }
}

describe('release preview', () => {
  it('counts per tier and split what the export then writes, and what it leaves out', () => {
    const dir = tempDir()
    const { db } = releaseProject(dir, releaseSubmissions(400, 9))
    const cases: Omit<ReleaseOptions, 'out'>[] = [
      {},
      { split: { test: 7, dev: 0.2, tier: 3, seed: 'x' } },
      { tiers: [3, 2], split: { test: 0.25, tier: 2, seed: 'y' } },
      { filter: { dimensions: [1, 4] }, split: { test: 3, tier: 3 } },
    ]
    for (const [i, options] of cases.entries()) {
      const before = preview(db, options)
      const result = exportNow(db, { ...options, out: join(dir, `r${i}`) })
      const manifest = JSON.parse(readFileSync(join(dir, `r${i}`, 'manifest.json'), 'utf8')) as {
        leftOut: Record<string, number>
        files: { tier: number; split: string; rows: number; annotations: number }[]
      }
      // Parts with work in them are the datasheet's rows; every file has its line.
      expect(before.parts.filter((p) => p.annotations > 0)).toEqual(
        datasheetCounts(result.datasheet),
      )
      for (const f of manifest.files) {
        const part = before.parts.find((p) => p.tier === f.tier && p.part === f.split)
        expect(part && [part.rows, part.annotations]).toEqual([f.rows, f.annotations])
      }
      expect(Object.fromEntries(before.leftOut.map((l) => [l.reason, l.annotations]))).toEqual(
        manifest.leftOut,
      )
      const kept = before.parts.reduce((n, p) => n + p.annotations, 0)
      const left = before.leftOut.reduce((n, l) => n + l.annotations, 0)
      expect(kept + left).toBe(before.total)
    }
  })

  it('says how many stories each held-out part took of the split tier', () => {
    const dir = tempDir()
    const { db } = releaseProject(dir, releaseSubmissions(300, 2))
    const p = preview(db, { split: { test: 5, dev: 2, tier: 3, seed: 's' } })
    expect(p.split).toMatchObject({ tier: 3, test: 5, dev: 2 })
    expect(p.split?.candidates).toBeGreaterThan(7)
    expect(p.parts.find((x) => x.tier === 3 && x.part === 'test')?.stories).toBe(5)
    expect(p.parts.find((x) => x.tier === 3 && x.part === 'dev')?.stories).toBe(2)
    expect(p.leftOut.some((l) => l.reason.startsWith('story held out for test (tier'))).toBe(true)
  })

  it('answers winnow export --dry-run with the same counts, writing nothing', async () => {
    const dir = tempDir()
    const { db } = releaseProject(dir, releaseSubmissions(120, 4))
    const options = { split: { test: 4, tier: 3, seed: 'z' } }
    const run = await cli(
      'export',
      '--db',
      db,
      '--dry-run',
      '--split-test',
      '4',
      '--split-tier',
      '3',
      '--seed',
      'z',
      '--json',
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(run.json).toEqual({ ...preview(db, options), placeholders: [] })
    const text = await cli('export', '--db', db, '--dry-run', '--out', join(dir, 'never'))
    expect(text.stdout).toMatch(/^tier\s+split\s+rows\s+annotations\s+stories\s+workers$/m)
    expect(text.stdout).toContain('Dry run: nothing was written')
    expect(() => readFileSync(join(dir, 'never', 'manifest.json'))).toThrow()
  })
})

describe('a release whose dataset card holds placeholders', () => {
  /** A project whose card is the default one: example.org and creator `unknown`. */
  function unfilled() {
    const dir = tempDir()
    const { db } = releaseProject(dir, releaseSubmissions(60, 5))
    const project = openProject(db)
    project.exec(`DELETE FROM settings WHERE key = 'release.card'`)
    project.close()
    return { dir, db }
  }

  it('is refused unless it is a draft, and nothing is written', async () => {
    const { dir, db } = unfilled()
    const out = join(dir, 'r')
    expect(() => exportNow(db, { out })).toThrow(
      /card still holds placeholders: home page “https:\/\/example\.org\/datasets\/p” and creator “unknown”/,
    )
    expect(() => readFileSync(join(out, 'manifest.json'))).toThrow()

    // The command line is refused by the same check, and names its own remedies.
    const refused = await cli('export', '--db', db, '--out', out)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('example.org')
    expect(refused.stderr).toContain('--draft')

    const draft = exportNow(db, { out, draft: true })
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as {
      draft: boolean
    }
    expect(manifest.draft).toBe(true)
    expect(draft.datasheet).toContain('**Draft release: not for publication.**')
    expect(readFileSync(join(out, 'README.md'), 'utf8')).toContain('Draft release')
  })

  it('is released once the card is filled in, on the page or with --card', async () => {
    const { dir, db } = unfilled()
    const run = await cli(
      'export',
      '--db',
      db,
      '--out',
      join(dir, 'r'),
      '--card',
      'url=https://glucose.winnow.dev/tiers',
      '--card',
      'creator=The GLUCOSE team',
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const croissant = readFileSync(join(dir, 'r', 'croissant.json'), 'utf8')
    expect(croissant).toContain('https://glucose.winnow.dev/tiers')
    expect(croissant).toContain('The GLUCOSE team')
    const manifest = JSON.parse(readFileSync(join(dir, 'r', 'manifest.json'), 'utf8')) as {
      draft: boolean
    }
    expect(manifest.draft).toBe(false)

    const project = openProject(db)
    saveReleaseSettings(
      project,
      db,
      {
        card: {
          name: 'p',
          description: 'Tiers.',
          license: 'cc-by-4.0',
          url: 'https://glucose.winnow.dev/tiers',
          creator: 'The GLUCOSE team',
        },
      },
      'lead',
    )
    project.close()
    expect(exportNow(db, { out: join(dir, 's') }).datasheet).not.toContain('Draft release')
  })
})
