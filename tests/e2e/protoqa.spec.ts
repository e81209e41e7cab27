import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, serve, stop, test } from './fixtures'
import { expectEntriesApart } from './layout'

const fixture = (name: string): string => join(import.meta.dirname, '../fixtures/protoqa', name)

/** Imports ProtoQA fixtures into a project with the command line. */
function importFixture(dbPath: string, ...names: string[]): void {
  execFileSync(process.execPath, [
    'out/main/cli.js',
    'protoqa',
    'import',
    ...names.map(fixture),
    '--db',
    dbPath,
  ])
}

/** Clusters the focused question's answers as `reviewer`, with the keys given, and saves. */
async function clusterAs(page: Page, reviewer: string, keys: string[]): Promise<void> {
  await page.getByTestId('protoqa-reviewer').fill(reviewer)
  const board = page.getByTestId('cluster-board')
  await expect(board).toHaveAttribute('aria-label', 'Clustering of t2q1')
  await expect(page.getByTestId('cluster-answer')).toHaveCount(3)
  await board.focus()
  for (const key of keys) await page.keyboard.press(key)
  await page.keyboard.press('Control+s')
  await expect(page.getByTestId('cluster-progress')).toContainText('3 of 3 answers placed')
  await expect(board).toContainText('saved')
}

test('clusters a question with the keyboard, compares two reviewers, decides and exports', async ({
  page,
  workDir,
}) => {
  const dbPath = join(workDir, 'p.winnow')
  importFixture(dbPath, 'answers.csv')
  const { served, child } = await serve(['--db', dbPath], workDir)
  try {
    await page.goto(served.url)
    await expect(page.getByTestId('project-name')).toContainText('p')
    await page.keyboard.press('Alt+7')
    await expect(page.getByTestId('protoqa-totals')).toContainText('2 questions')

    // Import through the page: the job adds the released questions beside the answer lists.
    await page.getByTestId('protoqa-import-input').setInputFiles(fixture('questions.jsonl'))
    await expect(page.getByTestId('protoqa-totals')).toContainText('4 questions')

    await page.getByTestId('protoqa-question-t2q1').click()
    // Answers by count: sand (2), shells, "water, lots". n = new cluster, 1 = into cluster 1,
    // x = invalid; each placement moves on to the next answer not yet placed.
    await clusterAs(page, 'ann', ['n', '1', 'x'])
    await expect(page.getByTestId('cluster')).toHaveCount(1)
    await expect(page.getByTestId('cluster-count')).toHaveText(['3'])
    await expect(page.getByTestId('cluster-rule')).toContainText('8 largest clusters hold 3 of 4')

    // Bob keeps the three apart, and names the shells' cluster.
    await clusterAs(page, 'bob', ['n', 'n', 'n'])
    await page.keyboard.press('k')
    await page.keyboard.press('r')
    await page.getByTestId('cluster-prompt').fill('sea shells')
    await page.keyboard.press('Enter')
    await page.keyboard.press('Control+s')
    await expect(page.getByTestId('cluster-name')).toHaveText(['sand', 'sea shells', 'water, lots'])

    await page.getByTestId('protoqa-mode-compare').click()
    await expect(page.getByTestId('compare-panel')).toContainText('t2q1: ann and bob')
    await expect(page.getByTestId('compare-row')).toHaveCount(3)
    await expect(page.getByTestId('compare-blanc-value')).not.toHaveText('')
    await page.getByTestId('decide-a').click()
    await expect(page.getByTestId('cluster-board')).toContainText(
      'Final clustering, decided by bob',
    )
    await expect(page.getByTestId('cluster-count')).toHaveText(['3'])
    await page.getByTestId('cluster-save').click()
    await expect(page.getByTestId('protoqa-question-t2q1')).toContainText('final')

    // The Release page offers the project's ProtoQA release, on the ProtoQA page's Export tab.
    await page.getByTestId('page-tab-release').click()
    await expect(page.getByTestId('release-collections')).toContainText(
      'ProtoQA: the finally clustered questions as ProtoQA JSONL',
    )
    await page.getByTestId('release-collection-protoqa').click()
    await expect(page.getByTestId('export-preview')).toContainText(
      '"clusters": {"t2q1.0": {"count": 3, "answers": ["sand", "shells"]}}',
    )
    await expect(page.getByTestId('export-preview')).toContainText(
      '"raw": {"sand": 2, "shells": 1, "water, lots": 1}',
    )
    await expect(page.getByTestId('export-datasheet')).toContainText('| t2q1 | ann, bob |')
  } finally {
    await stop(child)
  }
})

test('shows a collection’s tab once the project holds it, and More collections before', async ({
  page,
  workDir,
}) => {
  const { served, child } = await serve(['--db', join(workDir, 'new.winnow')], workDir)
  try {
    await page.goto(served.url)
    await expect(page.getByTestId('page-tab-release')).toBeVisible()
    await expect(page.getByTestId('page-tab-protoqa')).toHaveCount(0)
    await expect(page.getByTestId('page-tab-crowdaq')).toHaveCount(0)

    // A first ProtoQA file is imported on its page, opened from More collections.
    await page.getByTestId('more-collections').click()
    await expect(page.getByTestId('more-collections-protoqa')).toContainText('Alt+7')
    await page.getByTestId('more-collections-protoqa').click()
    await expect(page.getByTestId('page-tab-protoqa')).toHaveAttribute('aria-selected', 'true')
    await page.getByTestId('protoqa-import-input').setInputFiles(fixture('questions.jsonl'))
    await expect(page.getByTestId('protoqa-totals')).toContainText('2 questions')

    // Now the project holds ProtoQA: its tab stays, and keeps its key.
    await page.getByTestId('page-tab-review').click()
    await expect(page.getByTestId('page-tab-protoqa')).toHaveAttribute('title', /\(Alt\+7\)$/)
    await expect(page.getByTestId('page-tab-crowdaq')).toHaveCount(0)
    await page.getByTestId('more-collections').click()
    await expect(page.getByTestId('more-collections-protoqa')).toHaveCount(0)
    await expect(page.getByTestId('more-collections-crowdaq')).toContainText('Alt+8')
    await page.keyboard.press('Escape')

    // A hidden collection's key still opens its page; its tab shows while it is open.
    await page.keyboard.press('Alt+8')
    await expect(page.getByTestId('page-crowdaq')).toBeVisible()
    await expect(page.getByTestId('page-tab-crowdaq')).toHaveAttribute('aria-selected', 'true')
    await page.keyboard.press('Alt+7')
    await expect(page.getByTestId('protoqa-totals')).toContainText('2 questions')
    await expect(page.getByTestId('page-tab-crowdaq')).toHaveCount(0)
  } finally {
    await stop(child)
  }
})

test('suggests the cluster of a WordNet synonym, with the reason', async ({ page, workDir }) => {
  const dbPath = join(workDir, 's.winnow')
  importFixture(dbPath, 'synonyms.csv')
  const { served, child } = await serve(['--db', dbPath], workDir)
  try {
    await page.goto(served.url)
    await page.getByTestId('page-tab-protoqa').click()
    await page.getByTestId('protoqa-reviewer').fill('ann')
    const board = page.getByTestId('cluster-board')
    await expect(board).toHaveAttribute('aria-label', 'Clustering of t3q1')
    await board.focus()
    // By count: sunscreen (2), then sunblock, towel. n makes sunscreen a cluster and moves on.
    await page.keyboard.press('n')
    const suggestion = page.getByTestId('cluster-suggestion')
    await expect(suggestion).toHaveText('s: cluster 1 (synonym of “sunscreen”)')
    await page.keyboard.press('s')
    await expect(page.getByTestId('cluster-count')).toHaveText(['3'])
    // The towel is no one's synonym: nothing is suggested for it.
    await expect(page.getByTestId('cluster-progress')).toContainText('2 of 3 answers placed')
    await expect(suggestion).toHaveCount(0)
  } finally {
    await stop(child)
  }
})

test('scores predictions by WordNet similarity, showing what each answer matched', async ({
  page,
  workDir,
}) => {
  const dbPath = join(workDir, 'w.winnow')
  importFixture(dbPath, 'questions.jsonl', 'synonym-predictions.json')
  const { served, child } = await serve(['--db', dbPath], workDir)
  try {
    await page.goto(served.url)
    await page.getByTestId('page-tab-protoqa').click()
    await page.getByTestId('protoqa-mode-scores').click()
    const ma10 = page.locator('[data-testid=score-means] tr[data-metric="Max Answers - 10"]')
    await expect(ma10).toContainText('0.12500')
    await expect(page.getByTestId('score-question')).toContainText('0 of 100')

    // Telephone and billfold are in no cluster, but WordNet synonyms of phone and wallet.
    await page.getByTestId('score-similarity').selectOption('wordnet')
    await expect(ma10).toContainText('0.32000')
    await expect(page.getByTestId('score-question')).toContainText('39 of 100 → 0.3900')
    const rows = page.getByTestId('score-answer')
    await expect(rows).toHaveCount(3)
    await expect(rows.nth(0)).toContainText('t1q1.1 (30)')
    await expect(rows.nth(0).locator('td').nth(4)).toHaveText('phone')
    await expect(rows.nth(1).locator('td').nth(4)).toHaveText('wallet')
    await expect(rows.nth(2)).toContainText('incorrect')
  } finally {
    await stop(child)
  }
})

test('a plural is suggested as a normalised match, and s with nothing to suggest says so', async ({
  page,
  workDir,
}) => {
  const csv = join(workDir, 'bus.csv')
  writeFileSync(
    csv,
    [
      'question_id,question,answer,worker_id',
      't4q1,Name something you see at a bus stop.,buses,W1',
      't4q1,Name something you see at a bus stop.,buses,W2',
      't4q1,Name something you see at a bus stop.,bus,W3',
      't4q1,Name something you see at a bus stop.,bench,W4',
      '',
    ].join('\n'),
  )
  const dbPath = join(workDir, 'b.winnow')
  execFileSync(process.execPath, ['out/main/cli.js', 'protoqa', 'import', csv, '--db', dbPath])
  const { served, child } = await serve(['--db', dbPath], workDir)
  try {
    await page.goto(served.url)
    await page.getByTestId('page-tab-protoqa').click()
    await page.getByTestId('protoqa-reviewer').fill('ann')
    const board = page.getByTestId('cluster-board')
    await expect(board).toHaveAttribute('aria-label', 'Clustering of t4q1')
    await board.focus()
    // By count: buses (2), then bench, bus. n makes buses a cluster; bench matches nothing.
    await page.keyboard.press('n')
    await page.keyboard.press('s')
    await expect(page.getByTestId('cluster-no-suggestion')).toHaveText(
      's: no suggestion; no placed answer is the same, a normalised match or a WordNet synonym',
    )
    await expect(page.getByTestId('cluster-progress')).toContainText('1 of 3 answers placed')
    // "bus" is "buses" in another form: a normalised match, not a synonym.
    await page.keyboard.press('j')
    await expect(page.getByTestId('cluster-no-suggestion')).toHaveCount(0)
    await expect(page.getByTestId('cluster-suggestion')).toHaveText(
      's: cluster 1 (normalised match of “buses”)',
    )
    await page.keyboard.press('s')
    await expect(page.getByTestId('cluster-count')).toHaveText(['3'])
  } finally {
    await stop(child)
  }
})

test('the question list keeps each question apart and inside its column', async ({
  page,
  workDir,
}) => {
  const dbPath = join(workDir, 'q.winnow')
  importFixture(dbPath, 'questions.jsonl', 'answers.csv')
  const { served, child } = await serve(['--db', dbPath], workDir)
  try {
    await page.setViewportSize({ width: 1280, height: 720 })
    await page.goto(served.url)
    await page.getByTestId('page-tab-protoqa').click()
    await expect(page.getByTestId('protoqa-question-t2q1')).toBeVisible()
    await expectEntriesApart(
      page.getByTestId('protoqa-questions'),
      page.getByTestId('protoqa-questions').locator('button'),
    )
  } finally {
    await stop(child)
  }
})
