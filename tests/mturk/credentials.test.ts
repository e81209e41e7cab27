import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { dispatch } from '../../src/main/api/dispatch'
import { UserError } from '../../src/shared/contract/errors'
import type { JobProgress } from '../../src/shared/contract/jobs'
import type { MTurkPullResult } from '../../src/shared/contract/mturk'
import { environmentSecrets, parseIni, sessionSecrets } from '../../src/main/mturk/credentials'
import { seedDemo } from '../../standin/index'
import { Session } from '../../src/main/session'
import { useTempDir } from '../helpers/tmp'
import { CREDENTIALS, useStandin } from './standin-helpers'

const start = useStandin()
const tempDir = useTempDir()

/** Everything written to the console or the process's streams while `run` goes. */
async function captureOutput(run: () => Promise<void>): Promise<string> {
  const lines: string[] = []
  const keep = (...args: unknown[]): void => {
    lines.push(
      args
        .map((a) =>
          a instanceof Error
            ? `${a.stack ?? ''} ${JSON.stringify(a)}`
            : typeof a === 'string'
              ? a
              : JSON.stringify(a),
        )
        .join(' '),
    )
  }
  const spies = (['log', 'info', 'warn', 'error', 'debug', 'trace'] as const).map((m) =>
    vi.spyOn(console, m).mockImplementation(keep),
  )
  const writes = [process.stdout, process.stderr].map((stream) => {
    const original = stream.write.bind(stream)
    return vi.spyOn(stream, 'write').mockImplementation((chunk: unknown, ...rest: unknown[]) => {
      lines.push(String(chunk))
      return (original as (c: unknown, ...r: unknown[]) => boolean)(chunk, ...rest)
    })
  })
  try {
    await run()
  } finally {
    for (const s of [...spies, ...writes]) s.mockRestore()
  }
  return lines.join('\n')
}

describe('credentials', () => {
  afterEach(() => vi.restoreAllMocks())

  it('never reach the project file, the logs, the page or the events', async () => {
    const { standin, log } = await start()
    const seed = seedDemo(standin.state, { hits: 4, assignmentsPerHit: 5, brokenEvery: 7 })
    const path = join(tempDir(), 'p.winnow')
    const events: unknown[] = []
    const session = new Session('serve', (name, payload) => events.push({ name, payload }), {
      secrets: sessionSecrets(environmentSecrets({ env: {} })),
    })
    session.open(path, { create: true })
    const answers: unknown[] = []
    const call = async (name: string, args: unknown = {}): Promise<unknown> => {
      const outcome = await dispatch(name, args, { session })
      answers.push(outcome)
      if (!outcome.ok) throw new Error(`${name}: ${outcome.error.message}`)
      return outcome.value
    }

    const output = await captureOutput(async () => {
      await call('mturk.saveSettings', { endpoint: 'custom', customUrl: standin.url })
      expect(await call('mturk.test')).toMatchObject({ ok: false, code: 'mturk-no-credentials' })
      const settings = await call('mturk.setCredentials', CREDENTIALS)
      expect(settings).toMatchObject({
        endpoint: 'custom',
        url: standin.url,
        credentials: { source: 'session', set: true, accessKeyHint: '…EYID', editable: true },
      })
      expect(await call('mturk.test')).toMatchObject({
        ok: true,
        message: expect.stringContaining('Connected') as unknown,
      })
      const { jobId } = (await call('mturk.pull', { mode: 'all' })) as { jobId: string }
      await session.jobs.idle()
      const job = (await call('jobs.get', { id: jobId })) as JobProgress
      expect(job.state).toBe('succeeded')
      expect(job.result as MTurkPullResult).toMatchObject({ hits: 4, new: 20 })
      const a = seed.assignments[0]
      if (!a) throw new Error('no assignment')
      await call('mturk.bonus', {
        items: [{ workerId: a.WorkerId, assignmentId: a.AssignmentId }],
        amount: '0.25',
        reason: 'Thanks',
      })
      await call('mturk.notify', {
        workerIds: seed.workers,
        subject: 'Hello',
        message: 'More work soon.',
      })
      await call('mturk.qualify', {
        workerIds: [a.WorkerId],
        qualificationTypeId: seed.qualificationTypeIds[0],
        value: 2,
      })
      await call('mturk.workerActions', { workerId: a.WorkerId })
      await call('mturk.qualificationTypes', { counts: true })
      // A refused call is reported without the key.
      standin.setFaults({ serviceFault: 1 })
      await expect(call('mturk.hits', { refresh: true })).rejects.toThrow(/ServiceFault/)
      standin.setFaults({})
    })
    session.close()

    const secrets = [CREDENTIALS.secretAccessKey, CREDENTIALS.accessKeyId]
    const places: Record<string, string> = {
      output,
      answers: JSON.stringify(answers),
      events: JSON.stringify(events),
      'stand-in log': log.join('\n') + JSON.stringify(standin.state.requests),
    }
    for (const suffix of ['', '-wal', '-shm']) {
      if (existsSync(path + suffix))
        places[`project file${suffix}`] = readFileSync(path + suffix).toString('latin1')
    }
    expect(places['project file']).toContain('Thanks') // the search does find what is there
    for (const [where, text] of Object.entries(places)) {
      for (const secret of secrets)
        expect(text.includes(secret), `${where} holds a credential`).toBe(false)
    }
  })

  it('come from the environment, or a named profile of the shared credentials file', () => {
    const file = join(tempDir(), 'credentials')
    writeFileSync(
      file,
      '# comment\n[default]\naws_access_key_id = AKIDDEFAULT000000\naws_secret_access_key = s1\n\n[profile mturk]\naws_access_key_id=AKIDMTURK0000000\naws_secret_access_key= s2 \naws_session_token = t\n',
    )
    expect(parseIni(readFileSync(file, 'utf8')).get('mturk')?.get('aws_secret_access_key')).toBe(
      's2',
    )
    const env = {
      AWS_SHARED_CREDENTIALS_FILE: file,
      AWS_ACCESS_KEY_ID: 'AKIDENV0000000000',
      AWS_SECRET_ACCESS_KEY: 'e',
    }
    expect(environmentSecrets({ env }).read()).toEqual({
      accessKeyId: 'AKIDENV0000000000',
      secretAccessKey: 'e',
    })
    expect(environmentSecrets({ env, profile: 'mturk' }).read()).toEqual({
      accessKeyId: 'AKIDMTURK0000000',
      secretAccessKey: 's2',
      sessionToken: 't',
    })
    expect(
      environmentSecrets({ env: { AWS_SHARED_CREDENTIALS_FILE: file } }).describe(),
    ).toMatchObject({
      source: 'profile',
      set: true,
      accessKeyHint: '…0000',
      editable: false,
    })
    expect(() => environmentSecrets({ env, profile: 'nope' }).read()).toThrow(UserError)
    expect(
      environmentSecrets({ env: { AWS_SHARED_CREDENTIALS_FILE: join(file, 'missing') } }).read(),
    ).toBeNull()
    const none = environmentSecrets({
      env: { AWS_SHARED_CREDENTIALS_FILE: join(file, 'missing') },
    }).describe()
    expect(none).toMatchObject({ source: 'none', set: false, accessKeyHint: null })
  })
})
