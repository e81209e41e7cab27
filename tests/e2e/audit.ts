import type { Page } from '@playwright/test'

/** On the Audits page: draws a sample of every annotation, as a lead would fill the form. */
export async function drawAudit(
  page: Page,
  sample: { n: number; seed: number; name?: string; target?: number },
): Promise<void> {
  await page.getByTestId('audit-source').selectOption('all')
  await page.getByTestId('audit-n').fill(String(sample.n))
  await page.getByTestId('audit-seed').fill(String(sample.seed))
  if (sample.name !== undefined) await page.getByTestId('audit-name').fill(sample.name)
  if (sample.target !== undefined)
    await page.getByTestId('audit-target').fill(String(sample.target))
  await page.getByTestId('audit-draw').click()
}
