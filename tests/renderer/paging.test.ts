import { describe, expect, it } from 'vitest'
import { BlockCursors } from '../../src/renderer/src/features/grid/paging'

describe('BlockCursors', () => {
  it('reads the first block by offset, then continues by cursor', () => {
    const c = new BlockCursors()
    expect(c.request(0, 200)).toEqual({ limit: 200, offset: 0 })
    c.record(0, 200, { key: [5], id: 200 })
    expect(c.request(200, 400)).toEqual({ limit: 200, after: { key: [5], id: 200 } })
  })
  it('jumps by offset and forgets cursors when the data changed', () => {
    const c = new BlockCursors()
    expect(c.request(90_000, 90_200)).toEqual({ limit: 200, offset: 90_000 })
    c.record(90_000, 200, { key: [], id: 7 })
    expect('after' in c.request(90_200, 90_400)).toBe(true)
    c.clear()
    expect(c.request(90_200, 90_400)).toEqual({ limit: 200, offset: 90_200 })
  })
  it('records nothing for the last page', () => {
    const c = new BlockCursors()
    c.record(0, 10, null)
    expect(c.request(10, 210)).toEqual({ limit: 200, offset: 10 })
  })
})
