import { expect, openDemo, test } from './fixtures'

/** The part of a DOM element the check reads (the tests' types have no DOM). */
interface Styled {
  parentElement: Styled | null
  ownerDocument: {
    defaultView: { getComputedStyle(e: Styled): { color: string; backgroundColor: string } }
  }
}

/** WCAG contrast of two `rgb()`/`rgba()` colours (opaque ones: the tab's and what shows behind). */
function contrast(a: string, b: string): number {
  const luminance = (css: string) => {
    const [r = 0, g = 0, bl = 0] = (css.match(/[\d.]+/g) ?? []).map(Number).map((v) => {
      const c = v / 255
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
    })
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl
  }
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (hi + 0.05) / (lo + 0.05)
}

test('a hovered page tab reads clearly against its background', async ({ page, demo }) => {
  await openDemo(page, demo.url)
  const tab = page.getByTestId('page-tab-today')
  await expect(tab).toHaveAttribute('aria-selected', 'false')
  await tab.hover()
  const colours = await tab.evaluate((el: Styled) => {
    const style = (e: Styled) => el.ownerDocument.defaultView.getComputedStyle(e)
    // The first background that is not transparent, from the tab outwards.
    let at: Styled | null = el
    while (at && /rgba\(.*, 0\)|transparent/.test(style(at).backgroundColor)) at = at.parentElement
    return {
      text: style(el).color,
      background: at ? style(at).backgroundColor : 'rgb(255, 255, 255)',
    }
  })
  expect(
    contrast(colours.text, colours.background),
    JSON.stringify(colours),
  ).toBeGreaterThanOrEqual(4.5)
})
