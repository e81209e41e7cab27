import { join } from 'node:path'
import { expect, openCollection, serve, stop, test } from './fixtures'

test('writes an exam and a tutorial in the app, checked as an import is, and edits the exam', async ({
  page,
  workDir,
}) => {
  const { served, child } = await serve(['--db', join(workDir, 'author.winnow')], workDir)
  const firstQuestion = async (id: string): Promise<void> => {
    await page.getByTestId('cq-author-id').fill(id)
    await page.getByTestId('cq-author-q1-text').fill('Which is the quantity?')
    await page.getByTestId('cq-author-q1-option-0').fill('3')
    await page.getByTestId('cq-author-q1-option-1').fill('3 parts')
    await page.getByTestId('cq-author-q1-correct-1').check()
  }
  try {
    await page.goto(served.url)
    await openCollection(page, 'crowdaq')
    await page.getByTestId('cq-new-exam').click()
    const form = page.getByTestId('cq-author')
    await firstQuestion('units exam')
    await page.getByTestId('cq-author-add-question').click()
    await page.getByTestId('cq-author-q2-id').fill('q1')
    await page.getByTestId('cq-author-q2-text').fill('And here?')
    await page.getByTestId('cq-author-q2-add-option').click()
    await page.getByTestId('cq-author-q2-option-2').fill('about 3')
    await page.getByTestId('cq-author-q2-correct-2').check()

    // The checks of an import, named by question and field; nothing is saved.
    await page.getByTestId('cq-author-save').click()
    const problems = page.getByTestId('cq-author-problems')
    await expect(problems).toContainText('exam_id: expected an id of letters, digits and _')
    await page.getByTestId('cq-author-id').fill('units_exam')
    await page.getByTestId('cq-author-save').click()
    await expect(problems).toContainText(
      "Question 2 (q1): question_id: question id 'q1' is used twice",
    )
    await expect(page.getByTestId('cq-exams')).not.toContainText('units_exam')
    await page.getByTestId('cq-author-q2-id').fill('q2')
    await page.getByTestId('cq-passing').fill('50')
    await page.getByTestId('cq-author-save').click()
    await expect(form).toHaveCount(0)
    await expect(page.getByTestId('cq-exams')).toContainText('units_exam')
    await expect(page.getByTestId('cq-exams')).toContainText('2 questions, 0 attempts')
    await expect(page.getByTestId('cq-question')).toHaveCount(2)

    // Edit: one question disabled, one per attempt; the preview follows.
    await page.getByTestId('cq-edit').click()
    await expect(page.getByTestId('cq-author-id')).toHaveValue('units_exam')
    await expect(page.getByTestId('cq-passing')).toHaveValue('50')
    await page.getByTestId('cq-author-q2-disabled').check()
    await page.getByTestId('cq-author-save').click()
    await expect(form).toHaveCount(0)
    await expect(page.getByTestId('cq-question')).toHaveCount(1)
    await expect(page.getByTestId('cq-question')).toContainText('Which is the quantity?')

    // A tutorial explains each option.
    await page.getByTestId('cq-new-tutorial').click()
    await firstQuestion('units_tutorial')
    await page.getByTestId('cq-author-q1-explain-0').fill('The unit belongs to it.')
    await page.getByTestId('cq-author-q1-explain-1').fill('Yes: number and unit.')
    await page.getByTestId('cq-author-save').click()
    await expect(form).toHaveCount(0)
    await page.getByTestId('cq-question').getByText('3 parts').click()
    await expect(page.getByTestId('cq-explanation')).toContainText('Right. Yes: number and unit.')
  } finally {
    await stop(child)
  }
})
