import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { commands } from '../../src/main/cli/commands'
import { attachNegativeValues } from '../../src/main/cli/index'
import { cli } from '../helpers/cli'
import { useTempDir } from '../helpers/tmp'
import { day, importSubmissions, newProject } from '../ratings/helpers'

/** `--rating -1` and `--rating=-1`: both spellings of one option value. */
const spellings = (option: string, value: string): [string, string[]][] => [
  [`${option} ${value}`, [option, value]],
  [`${option}=${value}`, [`${option}=${value}`]],
]

describe('negative numbers on the command line', () => {
  const tempDir = useTempDir()

  function project(): string {
    const dir = tempDir()
    const db = newProject(dir)
    importSubmissions(db, [
      { worker: 'A1', at: day('2019-09-01'), fileRating: -1 },
      { worker: 'A1', at: day('2019-09-10'), fileRating: 2 },
      { worker: 'B2', at: day('2019-09-10'), fileRating: -1, dimensions: 3 },
    ])
    db.close()
    return join(dir, 'p.winnow')
  }

  it.each(spellings('--rating', '-1'))('query %s', async (_label, args) => {
    const db = project()
    const out = await cli('query', '--db', db, ...args, '--json')
    expect(out.stderr).toBe('')
    expect(out.code).toBe(0)
    expect((out.json as { total: number }).total).toBe(5)
  })

  it.each(spellings('--rating', '-2'))('rate a worker with %s', async (_label, args) => {
    const db = project()
    const out = await cli('rate', '--db', db, '--worker', 'A1', ...args, '--from', '2019-09-10')
    expect(out.stderr).toBe('')
    expect(out.code).toBe(0)
    const after = await cli('query', '--db', db, '--rating=-2', '--json')
    expect((after.json as { total: number }).total).toBe(2)
  })

  it.each(spellings('--rating', '-2'))(
    'rate selected submissions with %s',
    async (_label, args) => {
      const db = project()
      const out = await cli('rate', '--db', db, '--submission', '3', ...args)
      expect(out.stderr).toBe('')
      expect(out.code).toBe(0)
      const after = await cli('query', '--db', db, '--rating', '-2', '--json')
      expect((after.json as { total: number }).total).toBe(3)
    },
  )

  it.each(spellings('--where-rating', '-1'))('rate a query with %s', async (_label, args) => {
    const db = project()
    const out = await cli('rate', '--db', db, '--rating', '-2', ...args, '--bulk')
    expect(out.stderr).toBe('')
    expect(out.code).toBe(0)
    const after = await cli('query', '--db', db, '--rating', '-2', '--json')
    expect((after.json as { total: number }).total).toBe(5)
  })

  it('checks a negative count as a number out of range, not as an unknown option', async () => {
    const db = project()
    for (const [, args] of spellings('--limit', '-5')) {
      const out = await cli('query', '--db', db, ...args)
      expect(out.code).toBe(2)
      expect(out.stderr).toMatch(/--limit must not be negative/)
    }
  })

  it('keeps an unknown dash option a usage error', async () => {
    const out = await cli('query', '--db', project(), '-x')
    expect(out.code).toBe(2)
    expect(out.stderr).toMatch(/Unknown option '-x'/)
  })
})

describe('option values that start with a dash', () => {
  const options = { param: { type: 'string' }, flagged: { type: 'boolean' } } as const

  it('attach to an option that takes a value, in both spellings, and leave the rest', () => {
    expect(attachNegativeValues(['--param', 'k=-2', '--param', '-0.5'], options)).toEqual([
      '--param',
      'k=-2',
      '--param=-0.5',
    ])
    expect(
      attachNegativeValues(['--param=-2', '--flagged', '-1', '--', '--param', '-3'], options),
    ).toEqual(['--param=-2', '--flagged', '-1', '--', '--param', '-3'])
    expect(attachNegativeValues(['--param', '-x'], options)).toEqual(['--param', '-x'])
  })
})

describe('help', () => {
  it.each(commands.map((c) => c.name))('winnow %s --help ends its last line', async (name) => {
    const out = await cli(name, '--help')
    expect(out.code).toBe(0)
    expect(out.stdout.endsWith('\n')).toBe(true)
    expect(out.stdout.endsWith('\n\n')).toBe(false)
    for (const line of out.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(120)
  })
})
