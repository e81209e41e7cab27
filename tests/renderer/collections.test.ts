import { describe, expect, it } from 'vitest'
import { collectionViews } from '../../src/renderer/src/features/collections'
import { pageViews } from '../../src/renderer/src/features/shell/pageViews'
import { COLLECTIONS } from '../../src/shared/pages'

describe("the renderer's collections", () => {
  it("lists a view for each collection's page, in the order of their pages, and the shell shows it", () => {
    expect(collectionViews.map((v) => v.page)).toEqual([...COLLECTIONS])
    for (const v of collectionViews) expect(pageViews[v.page]).toBe(v.view)
  })
})
