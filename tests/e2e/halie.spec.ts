import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { writeHalieFolder } from '../helpers/halie'
import { expect, serve, stop, test } from './fixtures'

/** The replay's document as text, exactly (line breaks and spaces kept). */
async function documentText(page: Page): Promise<string> {
  return (await page.getByTestId('replay-doc').textContent()) ?? ''
}

async function currentEvent(page: Page): Promise<number> {
  return Number(
    await page.getByTestId('replay-events').locator('li.is-current').getAttribute('data-seq'),
  )
}

test('imports a HALIE folder, filters the sessions, replays a log and seeks: the document and the event list agree', async ({
  page,
  workDir,
}) => {
  const folder = writeHalieFolder(join(workDir, 'halie'), { sessionsPerTask: 4, logEvents: 240 })
  const { served, child } = await serve(['--db', join(workDir, 'h.winnow')], workDir)
  try {
    await page.goto(served.url)
    await expect(page.getByTestId('page-tab-halie')).toHaveCount(0)
    await page.getByTestId('more-collections').click()
    await page.getByTestId('more-collections-halie').click()
    await page.getByTestId('halie-import-input').setInputFiles(folder.dir)
    await expect(page.getByTestId('halie-total')).toHaveText('20 sessions')
    await expect(page.getByTestId('page-tab-halie')).toHaveCount(1)

    // Filter: the question task, with a raw log.
    await page.getByTestId('halie-filter-task').click()
    await page.getByRole('checkbox', { name: 'question' }).check()
    await page.keyboard.press('Escape')
    await expect(page.getByTestId('halie-total')).toHaveText('4 sessions')
    await page.getByTestId('halie-filter-queries-min').fill('1000')
    await expect(page.getByTestId('halie-total')).toHaveText('0 sessions')
    await page.getByTestId('halie-filter-queries-min').fill('')
    await expect(page.getByTestId('halie-total')).toHaveText('4 sessions')

    await page.getByTestId('halie-grid').locator('.ag-row').first().click()
    await expect(page.getByTestId('replay')).toBeVisible()
    const title = (await page.getByTestId('halie-session-id').textContent()) ?? ''
    const log = folder.logs.find((l) => title.endsWith(l.session))
    expect(log).toBeDefined()
    if (!log) return

    // Seek to the moment of event 150: the document is the editor's at that event, and the
    // event list marks that event.
    const k = 150
    await page.getByTestId('replay-seek').fill(String(log.after[k]?.ms))
    await expect(page.getByTestId('replay-count')).toHaveText(
      `${k + 1} of ${log.lines.length} events`,
    )
    expect(await currentEvent(page)).toBe(k)
    expect(await documentText(page)).toBe(log.after[k]?.text)

    // → and ← step one event; the document follows.
    await page.getByTestId('replay').focus()
    await page.keyboard.press('ArrowRight')
    await expect(page.getByTestId('replay-count')).toHaveText(
      `${k + 2} of ${log.lines.length} events`,
    )
    expect(await currentEvent(page)).toBe(k + 1)
    expect(await documentText(page)).toBe(log.after[k + 1]?.text)
    await page.keyboard.press('ArrowLeft')
    await page.keyboard.press('ArrowLeft')
    expect(await currentEvent(page)).toBe(k - 1)
    expect(await documentText(page)).toBe(log.after[k - 1]?.text)

    // ] speeds up to 16×; space plays to the end, where the document is the log's final text.
    for (let i = 0; i < 4; i++) await page.keyboard.press(']')
    await expect(page.getByTestId('replay-speed')).toHaveValue('16')
    await page.keyboard.press(' ')
    await expect(page.getByTestId('replay-count')).toHaveText(
      `${log.lines.length} of ${log.lines.length} events`,
      { timeout: 60_000 },
    )
    expect(await currentEvent(page)).toBe(log.lines.length - 1)
    expect(await documentText(page)).toBe(log.text)
    // Every character is drawn as text in its author's colour.
    const authors = await page
      .getByTestId('replay-doc')
      .locator('span')
      .evaluateAll((spans: { className: string; textContent: string | null }[]) =>
        spans
          .map((s) => s.className.replace('by-', '').repeat(s.textContent?.length ?? 0))
          .join(''),
      )
    expect(authors).toBe(log.provenance)

    await page.getByTestId('halie-back').click()
    await expect(page.getByTestId('halie-total')).toHaveText('4 sessions')

    // Charts of the question task, by model; each saves as SVG and PNG with its title.
    await page.getByTestId('halie-view-charts').click()
    await expect(page.getByTestId('halie-chart-survey')).toBeVisible()
    await expect(page.getByTestId('halie-chart-accuracy')).toBeVisible()
    const svg = page.waitForEvent('download')
    await page.getByTestId('halie-chart-survey-save-svg').click()
    const text = readFileSync((await (await svg).path()) ?? '', 'utf8')
    expect(text).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/)
    expect(text).toContain('question: survey scores by model')
    const png = page.waitForEvent('download')
    await page.getByTestId('halie-chart-queries-save-png').click()
    const bytes = readFileSync((await (await png).path()) ?? '')
    expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG')
  } finally {
    await stop(child)
  }
})
