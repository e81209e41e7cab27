import { describe, expect, it } from 'vitest'
import { PAGES, isGoCommand, isPageId } from '../../src/shared/pages'
import { pageViews } from '../../src/renderer/src/features/shell/pageViews'

describe('pages', () => {
  it('gives every page but Review (the workspace itself) a view', () => {
    const missing = PAGES.filter((p) => p.id !== 'review' && !pageViews[p.id]).map((p) => p.id)
    expect(missing).toEqual([])
    expect(Object.keys(pageViews).every(isPageId)).toBe(true)
  })

  it('reads the Go menu’s commands', () => {
    expect(isGoCommand('go:review')).toBe(true)
    expect(isGoCommand('go:nowhere')).toBe(false)
    expect(isGoCommand('import')).toBe(false)
  })
})
