import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { parse } from 'csv-parse/sync'
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
      .locator('span[class^="by-"]')
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

test('rates a session from the grid and its page, rates a block, follows the suggestion timeline and releases a tier', async ({
  page,
  workDir,
}) => {
  const folder = writeHalieFolder(join(workDir, 'halie'), { sessionsPerTask: 3, logEvents: 200 })
  const { served, child } = await serve(['--db', join(workDir, 'r.winnow')], workDir)
  try {
    await page.goto(served.url)
    await page.getByTestId('more-collections').click()
    await page.getByTestId('more-collections-halie').click()
    await page.getByTestId('halie-import-input').setInputFiles(folder.dir)
    await expect(page.getByTestId('halie-total')).toHaveText('15 sessions')
    await page.getByTestId('halie-filter-task').click()
    await page.getByRole('checkbox', { name: 'metaphor' }).check()
    await page.keyboard.press('Escape')
    await expect(page.getByTestId('halie-total')).toHaveText('3 sessions')

    // In the grid: focus a session's rating and press 3.
    const rating = page
      .getByTestId('halie-grid')
      .locator('.ag-row[row-index="0"] [col-id="rating"]')
      .first()
    await rating.click()
    await expect(rating).toHaveText('unrated')
    await page.keyboard.press('3')
    await expect(rating).toContainText('3')
    await expect(rating).toContainText('item')

    // On its page: 2 re-rates it; History-backed, so the grid shows it on return.
    await page
      .getByTestId('halie-grid')
      .locator('.ag-row[row-index="0"] [col-id="task"]')
      .first()
      .click()
    await expect(page.getByTestId('halie-session-rating')).toContainText('3')
    // The page takes the keyboard from the grid once the session and its log are read.
    await expect(page.getByTestId('halie-session')).toBeFocused()
    await page.keyboard.press('2')
    await expect(page.getByTestId('halie-session-rating')).toContainText('2')
    const title = (await page.getByTestId('halie-session-id').textContent()) ?? ''
    const log = folder.logs.find((l) => title.endsWith(l.session))
    const session = folder.sessions.find((s) => title.endsWith(s.id))
    expect(log).toBeDefined()
    if (!log || !session) return

    // The suggestion timeline: a mark per offer the log shows; a click seeks to it.
    const offers = log.lines
      .map((l, seq) => ({ seq, name: (JSON.parse(l) as { eventName: string }).eventName }))
      .filter((e) => e.name === 'suggestion-open')
    const marks = page.getByTestId('replay-mark')
    await expect(marks).toHaveCount(offers.length)
    const target = offers[Math.floor(offers.length / 2)]
    if (!target) return
    await page.locator(`[data-testid="replay-mark"][data-seq="${target.seq}"]`).click()
    await expect(page.getByTestId('replay-count')).toHaveText(
      `${target.seq + 1} of ${log.lines.length} events`,
    )
    await expect(page.getByTestId('replay-offer')).toContainText('one')
    expect(await documentText(page)).toBe(log.after[target.seq]?.text)

    // The first event block on its own: tier 1.
    await page.getByTestId('halie-tab-blocks').click()
    await page.getByTestId('halie-block-rating').first().selectOption('1')
    await expect(page.getByTestId('halie-block-rating').first()).toHaveValue('1')
    await page.getByTestId('halie-back').click()
    await expect(rating).toContainText('2')

    // Release the metaphor task: tier 2 holds the session's other blocks and its survey row,
    // tier 1 its first block, each row as the imported file has it.
    // The Release page offers the project's HALIE release, on the HALIE page's Release tab.
    await page.getByTestId('halie-view-sessions').click()
    await page.getByTestId('page-tab-release').click()
    await expect(page.getByTestId('release-collections')).toContainText(
      'HALIE: a task per tier, its rows as imported',
    )
    await page.getByTestId('release-collection-halie').click()
    await expect(page.getByTestId('halie-view-release')).toHaveClass(/is-active/)
    await page.getByTestId('halie-release-task').selectOption('metaphor')
    await page.getByTestId('halie-release-draft').check()
    const out = join(workDir, 'metaphor-release')
    await page.getByTestId('halie-release-out').fill(out)
    await page.getByTestId('halie-release-export').click()
    const done = page.getByTestId('halie-release-done')
    await expect(done).toContainText('data/tier-2/event_blocks.csv')
    const rowsOf = (path: string): string[][] => parse(readFileSync(path))
    const [header, ...source] = rowsOf(join(folder.dir, 'metaphor', 'event_blocks.csv'))
    const sid = header?.indexOf('session_id') ?? -1
    const ofSession = source.filter((row) => row[sid] === session.id)
    expect(ofSession).toHaveLength(session.blocks)
    expect(rowsOf(join(out, 'data', 'tier-1', 'event_blocks.csv'))).toEqual([header, ofSession[0]])
    expect(rowsOf(join(out, 'data', 'tier-2', 'event_blocks.csv'))).toEqual([
      header,
      ...ofSession.slice(1),
    ])
    expect(rowsOf(join(out, 'data', 'tier-3', 'event_blocks.csv'))).toEqual([header])
  } finally {
    await stop(child)
  }
})
