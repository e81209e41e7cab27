import { existsSync, readFileSync, readdirSync } from 'node:fs'
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
