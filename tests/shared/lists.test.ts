import { describe, expect, it } from 'vitest'
import { append, countAtMost, largest, smallest } from '../../src/shared/lists'

// Past ~120k items a spread into a call overflows the stack; these take lists of any length.
const MANY = 300_000
const numbers = Array.from({ length: MANY }, (_, i) => (i * 7919) % MANY)

describe('lists of any length', () => {
  it('appends every item in order', () => {
    const target = ['first']
    append(target, numbers.map(String))
    expect(target).toHaveLength(MANY + 1)
    expect(target.slice(0, 3)).toEqual(['first', '0', '7919'])
    expect(target.at(-1)).toBe(String(numbers.at(-1)))
  })

  it('finds the largest and the smallest, with a bound when the list is empty', () => {
    expect(largest(numbers)).toBe(MANY - 1)
    expect(smallest(new Set(numbers))).toBe(0)
    expect(largest([], 1)).toBe(1)
    expect(largest([0.2, 0.5], 1)).toBe(1)
    expect(smallest([3, 4], 0)).toBe(0)
    expect(largest([])).toBe(-Infinity)
    expect(smallest([])).toBe(Infinity)
  })

  it('counts the items of a sorted list at most a value, as a plain filter does', () => {
    const sorted = [1, 2, 2, 2, 5, 8, 8, 13]
    for (const value of [-1, 1, 1.5, 2, 4, 5, 8, 12, 13, 99]) {
      expect(countAtMost(sorted, value), String(value)).toBe(
        sorted.filter((v) => v <= value).length,
      )
    }
    expect(countAtMost([], 3)).toBe(0)
    expect(countAtMost(new Float64Array([0.5, 1.5]), 1)).toBe(1)
  })
})
