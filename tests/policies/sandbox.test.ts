import { spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Db } from '../../src/main/db/connection'
import { applyPolicy, dryRunPolicy } from '../../src/main/policies/run'
import { DEFAULT_LIMITS, PolicySandbox } from '../../src/main/policies/sandbox'
import { policyThread } from '../../src/main/policies/thread'
import { useTempDir } from '../helpers/tmp'
import { day, importSubmissions, newProject } from '../ratings/helpers'
import { policyText, ratingsSnapshot, tableCounts } from './helpers'

const root = join(import.meta.dirname, '..', '..')

/** Runs `source`'s rules in a process of its own (sandbox-child.ts): its outcome and peak memory. */
async function inOwnProcess(
  source: string,
  memoryMb: number,
): Promise<{ outcome: { code?: string; message?: string }; peakBytes: number }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'sandbox-child.ts'), String(memoryMb)],
    { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] },
  )
  let out = ''
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.stdin.end(source)
  await exited
  return JSON.parse(out) as { outcome: { code?: string; message?: string }; peakBytes: number }
}

function project(dir: string): Db {
  const db = newProject(dir)
  importSubmissions(db, [
    { worker: 'W1', at: day('2019-09-01'), fileRating: -2 },
    { worker: 'W2', at: day('2019-09-02'), fileRating: 3 },
  ])
  return db
}

/** A policy whose `rules` body is `body`, run to apply; returns the error's info. */
async function failure(
  db: Db,
  source: string,
  limits: { timeMs?: number; memoryBytes?: number } = {},
): Promise<{ code: string; message: string; file?: string; line?: number }> {
  const before = { counts: tableCounts(db), ratings: ratingsSnapshot(db) }
  const error: unknown = await applyPolicy(db, {
    source,
    fileName: 'bad.ts',
    author: 'x',
    limits,
  }).then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).not.toBeNull()
  // Nothing changed.
  expect({ counts: tableCounts(db), ratings: ratingsSnapshot(db) }).toEqual(before)
  return (error as { info: { code: string; message: string; line?: number } }).info
}

describe('policy sandbox', () => {
  const tempDir = useTempDir()

  it('reports a syntax error at its line, in TypeScript and in what the engine parses', async () => {
    const db = project(tempDir())
    const ts = policyText(`    const x: number = ;\n    return []`)
    expect(await failure(db, ts)).toMatchObject({ code: 'policy-syntax', file: 'bad.ts', line: 7 })
    const js = policyText(`    return [}`)
    expect(await failure(db, js)).toMatchObject({ code: 'policy-syntax', line: 7 })
  })

  it('reports a thrown error with its line', async () => {
    const db = project(tempDir())
    const info = await failure(
      db,
      policyText(`    const w = facts.worker('nobody')\n    return [w.id]`),
    )
    expect(info).toMatchObject({ code: 'policy-error', line: 8 })
    expect(info.message).toMatch(/TypeError/)
  })

  it('stops an endless loop at the time limit', async () => {
    const db = project(tempDir())
    const info = await failure(db, policyText(`    for (;;) {}`), { timeMs: 1500 })
    expect(info.code).toBe('policy-timeout')
    expect(info.message).toMatch(/time limit \(1.5 s\)/)
    expect(info.line).toBe(6)
  })

  it('stops a memory blow-up, a long built-in call and a runaway recursion', async () => {
    const db = project(tempDir())
    const big = policyText(
      `    const keep = []\n    for (;;) keep.push('x'.repeat(64 * 2 ** 20) + keep.length)`,
    )
    expect(await failure(db, big, { memoryBytes: 32 * 2 ** 20 })).toMatchObject({
      code: 'policy-memory',
      message: expect.stringMatching(/memory limit \(32 MB\)/) as unknown,
    })
    // One built-in call the engine cannot interrupt: the thread is stopped after the limit.
    // (A generic indexOf over 2^34 indexes allocates nothing and runs for minutes.)
    const long = policyText(`    return [Array.prototype.indexOf.call({ length: 2 ** 34 }, 1)]`)
    policyThread.mode = 'thread'
    try {
      expect(await failure(db, long, { timeMs: 1000 })).toMatchObject({ code: 'policy-timeout' })
    } finally {
      policyThread.mode = 'auto'
    }
    const recursion = policyText(`    const f = (n) => f(n + 1) + 1\n    return f(0)`)
    expect(await failure(db, recursion)).toMatchObject({ code: 'policy-stack' })
  })

  it('cannot read a file, open a socket, see process or import anything else', async () => {
    const dir = tempDir()
    const db = project(dir)
    const secret = join(dir, 'secret.txt')
    writeFileSync(secret, 'secret')
    const server = createServer((socket) => socket.end('hello'))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const probe = policyText(`    const seen = {
      process: typeof process, require: typeof require === 'function',
      fetch: typeof fetch, XMLHttpRequest: typeof XMLHttpRequest, WebSocket: typeof WebSocket,
      std: typeof std, os: typeof os, Buffer: typeof Buffer, globalProcess: typeof globalThis.process,
      setTimeout: typeof setTimeout,
    }
    throw new Error(JSON.stringify(seen))`)
      const seen = JSON.parse((await failure(db, probe)).message.replace(/^[^{]*/, '')) as Record<
        string,
        unknown
      >
      expect(seen).toEqual({
        process: 'undefined',
        require: true,
        fetch: 'undefined',
        XMLHttpRequest: 'undefined',
        WebSocket: 'undefined',
        std: 'undefined',
        os: 'undefined',
        Buffer: 'undefined',
        globalProcess: 'undefined',
        setTimeout: 'undefined',
      })
      for (const attempt of [
        `require('fs').readFileSync(${JSON.stringify(secret)}, 'utf8')`,
        `require('node:net').connect(${(server.address() as { port: number }).port})`,
        `require('child_process')`,
      ]) {
        const info = await failure(db, policyText(`    return ${attempt}`))
        expect(info.message).toMatch(/can import only the policy API/)
      }
      const dynamic = await failure(db, policyText(`    return import('fs')`))
      expect(dynamic.code).toMatch(/^policy-/)
      const topImport = `import { readFileSync } from 'fs'\n${policyText('    return [readFileSync]')}`
      expect(await failure(db, topImport)).toMatchObject({ line: 1 })
    } finally {
      server.close()
    }
  })

  it('has no clock, and a seeded random source', async () => {
    const db = project(tempDir())
    const clock = await failure(db, policyText(`    return [Date.now()]`))
    expect(clock.message).toMatch(/no clock/)
    const newDate = await failure(db, policyText(`    return [new Date()]`))
    expect(newDate.message).toMatch(/no clock/)
    const draws = policyText(
      `    const n = Math.floor(random() * 1000) + Math.floor(Math.random() * 1000) * 1000
    const d = new Date('2019-09-01').getTime()
    return [rule({ name: 'r' + n + ':' + d, where: { ratings: [] }, to: 1 })]`,
      { before: "import { random } from './winnow-policy'" },
    )
    const name = async (seed?: number) =>
      (
        await dryRunPolicy(db, {
          source: draws,
          fileName: 'seed.ts',
          ...(seed !== undefined ? { limits: { seed } } : {}),
        })
      ).rules[0]?.name
    expect(await name()).toBe(await name())
    expect(await name(1)).toBe(await name())
    expect(await name(2)).not.toBe(await name(1))
    expect(await name()).toMatch(/:1567296000000$/)
  })

  it('keeps facts read-only', async () => {
    const db = project(tempDir())
    const info = await failure(
      db,
      policyText(`    'use strict'\n    facts.workers[0].submissions = 99\n    return []`),
    )
    expect(info.message).toMatch(/TypeError.*read-only|TypeError/)
    const report = await dryRunPolicy(db, {
      source: policyText(`    const w = facts.worker('W1')
    return [rule({ name: [w.submissions, w.annotations, w.firstSubmission, w.submissionsRated(-2), w.byDay.length, w.byDimension[0].annotations, facts.audits.length, facts.scale.length, facts.ratings.length].join(','), where: {}, to: 1 })]`),
      fileName: 'facts.ts',
    })
    expect(report.rules[0]?.name).toBe('1,2,2019-09-01,1,1,1,0,7,2')
  })
  it('asks for the per-day and per-dimension tables only when the script reads them, once', async () => {
    const asked: string[] = []
    const table = (kind: string): string => {
      asked.push(kind)
      return JSON.stringify({ W1: [{ day: '2019-09-01', submissions: 1, annotations: 2 }] })
    }
    const facts = JSON.stringify({
      scale: [],
      ratings: [],
      workers: [
        {
          id: 'W1',
          submissions: 1,
          annotations: 2,
          firstSubmission: null,
          lastSubmission: null,
          byRating: [],
        },
      ],
      audits: [],
      firstSubmission: null,
      lastSubmission: null,
    })
    const ruleNames = async (body: string): Promise<unknown> => {
      const sandbox = await PolicySandbox.load(policyText(body), 'lazy.ts', DEFAULT_LIMITS, table)
      try {
        return (sandbox.rules(facts, '{}') as { name: string }[]).map((r) => r.name)
      } finally {
        sandbox.dispose()
      }
    }
    expect(
      await ruleNames(`    return [rule({ name: facts.workers[0].id, where: {}, to: 1 })]`),
    ).toEqual(['W1'])
    expect(asked).toEqual([])
    expect(
      await ruleNames(`    const w = facts.worker('W1')
    return [rule({ name: [w.byDay.length, w.byDay[0].annotations, Object.isFrozen(w.byDay[0])].join(','), where: {}, to: 1 })]`),
    ).toEqual(['1,2,true'])
    expect(asked).toEqual(['byDay'])
  })
  it('bounds the whole process by the memory limit, and what leaves the sandbox', async () => {
    // Large strings made and dropped: the engine's count stays under its limit while the
    // memory beneath it grew, before the bound, to 2 GB.
    const bomb = policyText(
      `    const keep = []\n    for (;;) keep.push('x'.repeat(8 * 2 ** 20) + keep.length)`,
    )
    const { outcome, peakBytes } = await inOwnProcess(bomb, 32)
    expect(outcome).toMatchObject({
      code: 'policy-memory',
      message: expect.stringMatching(/memory limit \(32 MB\)/) as unknown,
      line: 8,
    })
    expect(peakBytes).toBeLessThan(512 * 2 ** 20)
    // What the script hands back is measured before it is copied out of the engine.
    const db = project(tempDir())
    const big = await failure(
      db,
      policyText(`    return [rule({ name: 'x'.repeat(17 * 2 ** 20), where: {}, to: 1 })]`),
    )
    expect(big).toMatchObject({
      code: 'policy-too-large',
      message: "The policy's rules came to 17 MB of JSON; at most 16 MB may leave the sandbox.",
    })
  })

  it('leaves no path to the real clock or to a host function', async () => {
    const db = project(tempDir())
    // Every function reachable from the global object, through properties (getters and setters
    // too, none called) and prototypes; each named Date or now is called, and must refuse.
    const walk = policyText(`    const seen = new Set()
    const todo = [globalThis]
    const called = []
    const names = new Set()
    while (todo.length > 0) {
      const o = todo.pop()
      if (o === null || (typeof o !== 'object' && typeof o !== 'function') || seen.has(o)) continue
      seen.add(o)
      todo.push(Object.getPrototypeOf(o))
      for (const key of Reflect.ownKeys(o)) {
        const d = Object.getOwnPropertyDescriptor(o, key)
        todo.push(d.value, d.get, d.set)
      }
      if (typeof o !== 'function') continue
      names.add(o.name)
      if (o.name !== 'Date' && o.name !== 'now') continue
      for (const how of ['call', 'new']) {
        try {
          const value = how === 'call' ? o() : new o()
          called.push(o.name + ' ' + how + ' returned ' + String(value))
        } catch (e) {
          called.push(o.name + ' ' + how + ': ' + (/no clock/.test(e.message) ? 'no clock' : e.name))
        }
      }
    }
    throw new Error(JSON.stringify({ called: [...new Set(called)].sort(), fact: names.has('__fact'), functions: seen.size }))`)
    const seen = JSON.parse((await failure(db, walk)).message) as {
      called: string[]
      fact: boolean
      functions: number
    }
    expect(seen.functions).toBeGreaterThan(100)
    expect(seen.called).toEqual([
      'Date call: no clock',
      'Date new: no clock',
      'now call: no clock',
      'now new: TypeError',
    ])
    expect(seen.fact).toBe(false)
    for (const path of [
      'Object.getPrototypeOf(Date).now()',
      'new (Object.getPrototypeOf(Date))()',
      'Date.prototype.constructor.now()',
      'Object.getPrototypeOf(new Date(0)).constructor()',
      'Reflect.construct(Date, [])',
      'new (class extends Date {})()',
      'Date()',
    ]) {
      const info = await failure(db, policyText(`    return [${path}]`))
      expect(info.message, path).toMatch(/no clock|not a function|not a constructor/)
    }
    // Dates given explicitly work as before, subclasses too.
    const dates = await dryRunPolicy(db, {
      source: policyText(`    class Day extends Date {}
    const d = new Day('2017-05-01')
    return [rule({ name: [new Date(2017, 4, 1).getMonth(), Date.UTC(2017, 0, 1), Date.parse('2017-01-01'), d.getTime(), d instanceof Date, new Date(0).constructor === Date].join(), where: {}, to: 1 })]`),
      fileName: 'dates.ts',
    })
    expect(dates.rules[0]?.name).toBe('4,1483228800000,1483228800000,1493596800000,true,true')
  })

  it('says what the script did wrong when it throws something odd or returns NaN, at its line', async () => {
    const db = project(tempDir())
    expect(
      await failure(db, policyText(`    const x = 1\n    throw { message: 5, stack: 7 }`)),
    ).toMatchObject({
      code: 'policy-error',
      line: 8,
      message:
        'The policy threw an object, not an Error: {"message":5,"stack":7}. Throw new Error("…") to say what went wrong.',
    })
    expect(await failure(db, policyText(`    throw new Proxy({}, {})`))).toMatchObject({
      line: 7,
      message: expect.stringMatching(/^The policy threw an object, not an Error/) as unknown,
    })
    const trapped = policyText(
      `    throw new Proxy(new Error('hidden'), { get() { throw new Error('trap') }, ownKeys() { for (;;) {} } })`,
    )
    expect(await failure(db, trapped)).toMatchObject({
      line: 7,
      message: expect.stringMatching(/^The policy threw an object, not an Error/) as unknown,
    })
    expect(await failure(db, policyText(`    throw 'W1 is unknown'`))).toMatchObject({
      line: 7,
      message: expect.stringMatching(/threw a string, not an Error: "W1 is unknown"/) as unknown,
    })
    expect(await failure(db, policyText(`    if (facts) throw new Error()`))).toMatchObject({
      line: 7,
      column: 31,
      message: 'The policy threw an Error with no message.',
    })
    const nan = policyText(`    return [
      rule({ name: 'fine', where: {}, to: 1 }),
      rule({ name: 'nan', where: {}, to: NaN }),
    ]`)
    expect(await failure(db, nan)).toMatchObject({
      code: 'policy-rules',
      line: 9,
      message: 'Rule 2 (to): expected a finite number, got NaN',
    })
    const infinite = policyText(
      `    return [rule({ name: 'inf', where: { ratings: [3, Infinity] }, to: 1 })]`,
    )
    expect(await failure(db, infinite)).toMatchObject({
      line: 7,
      message: 'Rule 1 (where.ratings.1): expected a finite number, got Infinity',
    })
  })
})
