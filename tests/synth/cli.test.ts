import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from '../helpers/cli'
import { useTempDir } from '../helpers/tmp'

describe('winnow synth', () => {
  const tempDir = useTempDir()

  it('writes the same project for the same seed, and says what it added', async () => {
    const dir = tempDir()
    const a = await cli(
      'synth',
      '--db',
      join(dir, 'a.winnow'),
      '--submissions',
      '50',
      '--seed',
      '3',
      '--json',
    )
    const b = await cli(
      'synth',
      '--db',
      join(dir, 'b.winnow'),
      '--submissions',
      '50',
      '--seed',
      '3',
    )
    expect(a.code).toBe(0)
    const added = a.json as { submissions: number; annotations: number }
    expect(added.submissions).toBe(50)
    expect(added.annotations).toBeGreaterThan(50)
    expect(b.stdout).toBe(
      `Added 50 submissions and ${added.annotations.toLocaleString('en-US')} annotations.\n`,
    )
    const stats = async (name: string) =>
      (await cli('stats', '--db', join(dir, name), '--json')).json as Record<string, unknown>
    expect(await stats('b.winnow')).toEqual(await stats('a.winnow'))
  })

  it('refuses a count below one as a usage error (and so does history)', async () => {
    const dir = tempDir()
    const run = await cli('synth', '--db', join(dir, 'p.winnow'), '--submissions', '0')
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('--submissions must be at least 1, got 0')
    const history = await cli('history', '--db', join(dir, 'p.winnow'), '--limit', '0')
    expect(history.code).toBe(2)
    expect(history.stderr).toContain('--limit must be at least 1, got 0')
  })
})
