import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, gridTotal, openDemo, test } from './fixtures'

test('export what the grid shows as a release, then read its datasheet in the app', async ({
  page,
  demo,
}) => {
  await openDemo(page, demo.url)
  // Narrow the grid to one dimension: the release follows it.
  await page.getByTestId('filter-dimension').click()
  await page.getByTestId('filter-dimension-option').first().click()
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('filter-chip')).toHaveCount(1)
  await expect(page.getByTestId('grid-total')).not.toContainText('14,061')
  const shown = await gridTotal(page)

  await page.getByTestId('page-tab-release').click()
  await expect(page.getByTestId('release-page')).toBeVisible()
  await page.getByTestId('release-scope-grid').check()
  await page.getByTestId('release-format-jsonl').check()
  await page.getByTestId('release-format-parquet').check()
  await page.getByTestId('release-split').check()
  await page.getByTestId('release-split-test').fill('2')
  // The demo's card is the default one, with placeholders: a draft may carry them.
  await page.getByTestId('release-draft').check()
  const out = join(demo.dir, 'release')
  await page.getByTestId('release-out').fill(out)
  await page.getByTestId('release-export').click()

  const datasheet = page.getByTestId('release-datasheet')
  await expect(datasheet).toContainText('# Datasheet', { timeout: 60_000 })
  await expect(datasheet).toContainText('dimension 1')
  await expect(page.getByTestId('release-done')).toContainText('data/tier-3-test.csv')

  for (const file of ['datasheet.md', 'README.md', 'croissant.json', 'manifest.json']) {
    expect(existsSync(join(out, file))).toBe(true)
  }
  const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as {
    files: { path: string; annotations: number }[]
    leftOut: Record<string, number>
  }
  expect(readdirSync(join(out, 'data')).sort()).toEqual(
    manifest.files.map((f) => f.path.slice(5)).sort(),
  )
  const csv = manifest.files.filter((f) => f.path.endsWith('.csv'))
  const kept = csv.reduce((n, f) => n + f.annotations, 0)
  const left = Object.values(manifest.leftOut).reduce((n, x) => n + x, 0)
  expect(kept + left).toBe(shown)
  expect(readFileSync(join(out, 'datasheet.md'), 'utf8')).toBe(await datasheet.textContent())
  // Only dimension 1 is in the files.
  const lines = readFileSync(join(out, 'data', 'tier-3-train.jsonl'), 'utf8')
    .trim()
    .split('\n')
  for (const line of lines.slice(0, 20)) {
    const o = JSON.parse(line) as { dimensions: { dimension: number }[] }
    expect(o.dimensions.map((d) => d.dimension)).toEqual([1])
  }
})

test('the Release page refuses to replace the project’s own folder, and says why', async ({
  page,
  demo,
}) => {
  const listing = readdirSync(demo.dir).sort()
  for (const forced of [false, true]) {
    await openDemo(page, demo.url)
    await page.getByTestId('page-tab-release').click()
    await page.getByTestId('release-draft').check()
    await page.getByTestId('release-out').fill(demo.dir)
    if (forced) await page.getByRole('checkbox', { name: /replace/i }).check()
    await page.getByTestId('release-export').click()
    await expect(page.getByTestId('release-error')).toContainText(
      `${demo.dir} holds this project (demo.winnow).`,
    )
    expect(readdirSync(demo.dir).sort()).toEqual(listing)
  }
  // The project is still open and whole.
  await page.getByTestId('page-tab-review').click()
  await expect(page.getByTestId('grid-total')).toContainText('14,061 annotations')
})

/** The release folder's manifest, as far as these tests read it. */
function manifestOf(out: string): {
  draft: boolean
  files: { path: string; tier: number; split: string; rows: number; annotations: number }[]
} {
  return JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as never
}

test('the dataset card’s placeholders are named, and only a draft is exported with them', async ({
  page,
  demo,
}) => {
  await openDemo(page, demo.url)
  await page.getByTestId('page-tab-release').click()
  const warning = page.getByTestId('release-card-warning')
  await expect(warning).toContainText('https://example.org/datasets/demo')
  await expect(warning).toContainText('creator “unknown”')
  await expect(page.getByTestId('release-export')).toBeDisabled()

  await page.getByTestId('release-draft').check()
  await expect(warning).toContainText('This draft carries')
  const draft = join(demo.dir, 'draft')
  await page.getByTestId('release-out').fill(draft)
  await page.getByTestId('release-export').click()
  await expect(page.getByTestId('release-datasheet')).toContainText(
    'Draft release: not for publication.',
    { timeout: 60_000 },
  )
  expect(manifestOf(draft).draft).toBe(true)

  // Filled in and saved, the card is released as it is, and not as a draft.
  await page.getByTestId('release-draft').uncheck()
  await expect(page.getByTestId('release-export')).toBeDisabled()
  await page.getByTestId('release-card-url').fill('https://glucose.winnow.dev/tiers')
  await page.getByTestId('release-card-creator').fill('The GLUCOSE team')
  await page.getByRole('button', { name: 'Save tier map and card' }).click()
  await expect(warning).toHaveCount(0)
  const final = join(demo.dir, 'final')
  await page.getByTestId('release-out').fill(final)
  await page.getByTestId('release-export').click()
  await expect(page.getByTestId('release-done')).toContainText(final, { timeout: 60_000 })
  expect(manifestOf(final).draft).toBe(false)
  const card = readFileSync(join(final, 'README.md'), 'utf8')
  expect(card).toContain('https://glucose.winnow.dev/tiers')
  expect(card).not.toContain('example.org')
})

test('before Export the page counts rows, annotations, stories and workers per tier and split', async ({
  page,
  demo,
}) => {
  await openDemo(page, demo.url)
  await page.getByTestId('page-tab-release').click()
  const rows = page.getByTestId('release-preview-row')
  await expect(rows).toHaveCount(3)
  await page.getByTestId('release-split').check()
  await page.getByTestId('release-split-test').fill('20')
  const held = page.locator('[data-testid="release-preview-row"][data-part="3-test"]')
  await expect(held).toBeVisible()
  await expect(held.locator('td').nth(4)).toHaveText('20')
  await expect(page.getByTestId('release-preview-split')).toContainText(
    /Held out from tier 3: 20 of its [\d,]+ stories for test, \d+% of its annotations/,
  )
  await expect(page.getByTestId('release-preview-left-out')).toContainText(
    'story held out for test (tier 2)',
  )
  await expect(page.getByTestId('release-preview')).not.toHaveAttribute('aria-busy', 'true')
  const shown = new Map<string, number[]>()
  for (const row of await rows.all()) {
    const cells = (await row.locator('td').allTextContents()).map((t) => t.replace(/,/g, ''))
    shown.set(`${cells[0]}-${cells[1]}`, cells.slice(2).map(Number))
  }

  // The export writes what was counted.
  await page.getByTestId('release-draft').check()
  const out = join(demo.dir, 'counted')
  await page.getByTestId('release-out').fill(out)
  await page.getByTestId('release-export').click()
  await expect(page.getByTestId('release-done')).toContainText(out, { timeout: 60_000 })
  const files = manifestOf(out).files
  expect(files.length).toBe(shown.size)
  for (const f of files) {
    expect(shown.get(`${f.tier}-${f.split}`)?.slice(0, 2)).toEqual([f.rows, f.annotations])
  }
})

test('the export shows its progress on the page, with no job toast over its fields', async ({
  page,
  demo,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 })
  await openDemo(page, demo.url)
  await page.getByTestId('page-tab-release').click()
  await page.getByTestId('release-draft').check()
  await page.getByTestId('release-out').fill(join(demo.dir, 'shown'))
  await page.getByTestId('release-export').click()
  await expect(page.getByTestId('release-done')).toBeVisible({ timeout: 60_000 })
  // Read once, at the moment the page shows the result: the tray would still show the job then.
  expect(await page.getByTestId('job-tray').getByTestId('job').count()).toBe(0)
  await expect(page.getByTestId('release-done')).toContainText('data/tier-3.csv')
})

test('a folder that is not empty is refused in the page’s words', async ({ page, demo }) => {
  // An earlier release (its manifest alone): the one kind of full folder the box can replace.
  const out = join(demo.dir, 'full')
  mkdirSync(out)
  const manifest = { manifestVersion: 1, winnow: { version: '0.1.0' }, files: [], documents: [] }
  writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest))
  await openDemo(page, demo.url)
  await page.getByTestId('page-tab-release').click()
  await page.getByTestId('release-draft').check()
  await page.getByTestId('release-out').fill(out)
  await page.getByTestId('release-export').click()
  const error = page.getByTestId('release-error')
  await expect(error).toContainText('is not empty')
  await expect(error).toContainText('Replace a folder that is not empty')
  await expect(error).not.toContainText('--force')
  expect(readdirSync(out)).toEqual(['manifest.json'])
})
