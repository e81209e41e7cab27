import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { htmlFormAnswerXml } from '../../standin/answer-xml'
import { createStandin } from '../../standin/index'
import { expect, serve, stop, test } from './fixtures'

const FIXTURES = fileURLToPath(new URL('../fixtures/crowdaq', import.meta.url))
const KEYS = {
  AWS_ACCESS_KEY_ID: 'AKIDE2ESTANDINKEY01',
  AWS_SECRET_ACCESS_KEY: 'e2e/secret+never-shown-0123456789',
}

test('imports an exam, previews it, imports attempts, applies bands on the stand-in, reads the report', async ({
  page,
  workDir,
}) => {
  const standin = await createStandin()
  const main = standin.state.addQualificationType({ Name: 'Main task' }).QualificationTypeId
  const warm = standin.state.addQualificationType({ Name: 'Warm-up' }).QualificationTypeId
  Object.assign(process.env, KEYS)
  const { served, child } = await serve(['--db', join(workDir, 'cq.winnow')], workDir)
  try {
    await page.goto(served.url)
    // The project holds no CROWDAQ work yet: its page opens from More collections.
    await expect(page.getByTestId('page-tab-crowdaq')).toHaveCount(0)
    await page.getByTestId('more-collections').click()
    await page.getByTestId('more-collections-crowdaq').click()
    const input = page.getByTestId('cq-import-input')
    await input.setInputFiles([join(FIXTURES, 'fx_guide.md'), join(FIXTURES, 'exam.json')])
    await expect(page.getByTestId('cq-exams')).toContainText('4 questions, 0 attempts')

    // Preview: three of the four questions, the HTML context without its script or remote image.
    await page.getByRole('button', { name: 'fx_exam' }).click()
    await expect(page.getByTestId('cq-question')).toHaveCount(3)
    const preview = page.getByTestId('cq-preview')
    await expect(preview.locator('script, img, [onclick]')).toHaveCount(0)
    await expect(page.getByTestId('cq-instruction')).toContainText('Labelling quantities')
    await page.getByTestId('cq-submit').click()
    await expect(page.getByTestId('cq-result')).toContainText('3 mistakes: not passed')

    // Attempts, then bands naming the stand-in's qualification types.
    await input.setInputFiles([join(FIXTURES, 'exam_assignments.json')])
    await expect(page.getByTestId('cq-exams')).toContainText('6 attempts')
    // Each file was an import job, listed with what it did.
    await expect(page.getByTestId('job-tray')).toContainText(
      'Imported exam_assignments.json: 6 exam attempts.',
    )
    await page.getByTestId('cq-band-type-0').fill(main)
    await page.getByTestId('cq-band-type-1').fill(warm)
    await page.getByTestId('cq-save-settings').click()

    // Point the project at the stand-in, then apply the bands: a plan first, then the requests.
    await page.getByTestId('page-tab-review').click()
    await page.getByTestId('mturk-open').click()
    await page.getByTestId('mturk-endpoint').selectOption('custom')
    await page.getByTestId('mturk-endpoint-url').fill(standin.url)
    await page.getByTestId('mturk-save').click()
    await page.getByTestId('mturk-close').click()
    await page.getByTestId('page-tab-crowdaq').click()
    await page.getByRole('button', { name: 'fx_exam' }).click()
    await page.getByTestId('cq-plan').click()
    await expect(page.getByTestId('cq-qualify-plan')).toContainText('2 qualifications to send')
    await page.getByTestId('cq-qualify-confirm').click()
    await expect(page.getByTestId('cq-qualify-plan')).toContainText('2 sent, 0 already sent')
    await expect(page.getByTestId('job-tray')).toContainText(
      'Qualifying the workers of exam fx_exam',
    )
    expect(standin.state.qualification(main, 'AWONE')?.IntegerValue).toBe(100)
    expect(standin.state.qualification(warm, 'AWTHREE')?.IntegerValue).toBe(75)

    await page.getByTestId('cq-report').click()
    const questions = page.getByTestId('cq-questions-report')
    await expect(questions.locator('tbody tr')).toHaveCount(4)
    await expect(questions.locator('tbody tr').nth(3)).toContainText('A✓ 1 · B 2')
    await expect(page.getByTestId('cq-workers-report')).toContainText('AWTHREE')
    await expect(page.getByTestId('cq-untimed')).toContainText('the time limit is not checked')

    // An attempt submitted 90 minutes after it was opened, on a one-hour limit: over time, until
    // the limit is raised.
    const slow = join(workDir, 'slow_rows.json')
    writeFileSync(
      slow,
      JSON.stringify([
        {
          _id: 'slow1',
          exam_id: 'fx_exam',
          worker_id: 'AWSLOW',
          worker_platform: 'mturk',
          assignment_payload: [{ question_id: 'q1' }, { question_id: 'q2' }, { question_id: 'q3' }],
          response_payload: { q1: 'A', q2: 'B', q3: 'C' },
          create_at: '2026-03-01T10:00:00.000Z',
          deadline: '2026-03-01T11:00:00.000Z',
          complete_time: '2026-03-01T11:30:00.000Z',
        },
      ]),
    )
    await input.setInputFiles([slow])
    await expect(page.getByTestId('cq-exams')).toContainText('7 attempts')
    await page.getByTestId('cq-report').click()
    const workers = page.getByTestId('cq-workers-report')
    await expect(workers.locator('tr', { hasText: 'AWSLOW' })).toContainText('100% (over-time)')
    await expect(page.getByTestId('cq-untimed')).toContainText('6 of them carry no start time')
    await page.getByTestId('cq-time-limit').fill('7200')
    await page.getByTestId('cq-save-settings').click()
    await page.getByTestId('cq-report').click()
    await expect(workers.locator('tr', { hasText: 'AWSLOW' })).not.toContainText('over-time')
    await expect(workers.locator('tr', { hasText: 'AWSLOW' })).toContainText('main task')

    // Attempts from the exam's qualification HIT on MTurk, answers keyed by question id.
    const qualification = standin.state.addHIT({
      Title: 'Quantity qualification',
      HITTypeId: '3TQUALE2E000000000000000000000',
      MaxAssignments: 2,
    })
    standin.state.addAssignment({
      HITId: qualification.HITId,
      WorkerId: 'AWFIVE',
      Answer: htmlFormAnswerXml({ shown: 'q1 q2 q3', q1: 'A', q2: 'B', q3: 'C' }),
    })
    await page.getByTestId('cq-pull-hit-types').fill(qualification.HITTypeId)
    await page.getByTestId('cq-pull').click()
    await expect(page.getByTestId('cq-pull-outcome')).toContainText(
      '1 new attempt from 1 assignment of 1 HIT',
    )
    await expect(page.getByTestId('cq-exams')).toContainText('8 attempts')
    await page.getByTestId('cq-report').click()
    await expect(workers.locator('tr', { hasText: 'AWFIVE' })).toContainText('main task')
  } finally {
    await stop(child)
    await standin.close()
  }
})

/** What a test reads of an element's style (the tests are typed without the DOM's types). */
interface Styled {
  ownerDocument: {
    defaultView: { getComputedStyle(element: unknown): { backgroundColor: string } }
  }
}

test('Import CROWDAQ files… is a button, reached by the keyboard, that opens the file chooser', async ({
  page,
  workDir,
}) => {
  const { served, child } = await serve(['--db', join(workDir, 'cq.winnow')], workDir)
  try {
    // Listened for from the start: Playwright turns on its interception of the chooser when the
    // first listener comes, and a chooser opened before that is not seen.
    const chooser = page.waitForEvent('filechooser')
    await page.goto(served.url)
    await page.getByTestId('more-collections').click()
    await page.getByTestId('more-collections-crowdaq').click()
    const button = page.getByRole('button', { name: 'Import CROWDAQ files…' })
    await expect(button).toBeVisible()
    // Drawn as the page's main action: filled, not text on the page's background.
    const background = (e: Styled) =>
      e.ownerDocument.defaultView.getComputedStyle(e).backgroundColor
    const fill = await button.evaluate(background)
    const list = await page.locator('.cq-list').evaluate(background)
    expect(fill).not.toBe(list)
    expect(fill).not.toBe('rgba(0, 0, 0, 0)')
    await button.focus()
    await expect(button).toBeFocused()
    await page.keyboard.press('Enter')
    await (await chooser).setFiles([join(FIXTURES, 'exam.json')])
    await expect(page.getByTestId('cq-exams')).toContainText('4 questions, 0 attempts')
  } finally {
    await stop(child)
  }
})
