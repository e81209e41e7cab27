import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { callNames } from '../../src/shared/contract'

describe('the contract', () => {
  it('parses without compiling code, so the page’s CSP sees no eval probe', () => {
    expect(callNames.length).toBeGreaterThan(0)
    expect(z.config().jitless).toBe(true)
  })
})
