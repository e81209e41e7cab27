import { type Locator, expect } from '@playwright/test'

/** What the check reads of an element (the tests are typed without the DOM's types). */
interface Boxed {
  getBoundingClientRect(): { top: number; bottom: number; left: number; right: number }
  scrollWidth: number
  clientWidth: number
  scrollHeight: number
  clientHeight: number
}

/** Fails unless each entry of a list stays inside the list's column and clear of the others. */
export async function expectEntriesApart(list: Locator, entries: Locator): Promise<void> {
  const column = await list.boundingBox()
  expect(column).not.toBeNull()
  const boxes = await entries.evaluateAll((nodes: Boxed[]) =>
    nodes.map((node) => {
      const r = node.getBoundingClientRect()
      // The entry's own box holds its text: nothing spills out of it (no clipped overflow either).
      const spills = node.scrollWidth > node.clientWidth || node.scrollHeight > node.clientHeight
      return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, spills }
    }),
  )
  expect(boxes.length).toBeGreaterThan(1)
  for (const [i, box] of boxes.entries()) {
    expect(box.spills, `entry ${i + 1} spills out of its box`).toBe(false)
    expect(box.right, `entry ${i + 1} runs past its column`).toBeLessThanOrEqual(
      (column?.x ?? 0) + (column?.width ?? 0) + 0.5,
    )
    const next = boxes[i + 1]
    if (next)
      expect(next.top, `entry ${i + 2} overlaps entry ${i + 1}`).toBeGreaterThanOrEqual(
        box.bottom - 0.5,
      )
  }
}
