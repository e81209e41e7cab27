import { request } from 'node:http'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/main/serve/server'
import { useTempDir } from '../helpers/tmp'

/** A raw request, so the Host header can be set like a rebinding attacker would. */
function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  return new Promise<{ status: number; body: string; headers: Record<string, unknown> }>(
    (resolve, reject) => {
      const req = request(
        url,
        { method: options.method ?? 'GET', headers: options.headers },
        (res) => {
          let body = ''
          res.setEncoding('utf8')
          res.on('data', (chunk: string) => (body += chunk))
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }))
        },
      )
      req.on('error', reject)
      req.end(options.body)
    },
  )
}

describe('serve mode', () => {
  const tempDir = useTempDir()
  let server: RunningServer | null = null
  afterEach(async () => {
    await server?.close()
    server = null
  })

  async function start(maxUploadBytes?: number) {
    const dir = tempDir()
    const rendererDir = join(dir, 'renderer')
    mkdirSync(rendererDir)
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Winnow</title>')
    writeFileSync(join(dir, 'secret.txt'), 'do not serve')
    server = await startServer({
      rendererDir,
      ...(maxUploadBytes === undefined ? {} : { maxUploadBytes }),
    })
    return { server, dir }
  }

  it('binds 127.0.0.1 and serves the page with a strict CSP', async () => {
    const { server } = await start()
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
    expect(server.openUrl).toContain(`#token=${server.token}`)
    const page = await raw(server.url)
    expect(page.status).toBe(200)
    expect(String(page.headers['content-security-policy'])).toContain("script-src 'self'")
  })

  it('requires the per-run token for the API', async () => {
    const { server } = await start()
    const call = (token?: string) =>
      raw(`${server.url}api/app.info`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { 'x-winnow-token': token } : {}),
        },
        body: '{}',
      })
    expect((await call()).status).toBe(401)
    expect((await call('wrong')).status).toBe(401)
    const ok = await call(server.token)
    expect(ok.status).toBe(200)
    expect(JSON.parse(ok.body)).toMatchObject({ ok: true, value: { mode: 'serve' } })
  })

  it('refuses foreign Host headers and paths outside the page', async () => {
    const { server } = await start()
    const port = new URL(server.url).port
    expect((await raw(server.url, { headers: { host: `evil.example:${port}` } })).status).toBe(403)
    for (const path of ['..%2Fsecret.txt', '%2E%2E/secret.txt', '..%5Csecret.txt']) {
      const res = await raw(`${server.url}${path}`)
      expect(res.status).not.toBe(200)
      expect(res.body).not.toContain('do not serve')
    }
  })

  it('validates arguments of HTTP calls like IPC ones', async () => {
    const { server } = await start()
    const res = await raw(`${server.url}api/project.open`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-winnow-token': server.token },
      body: JSON.stringify({ path: ['not', 'a', 'string'] }),
    })
    expect(JSON.parse(res.body)).toMatchObject({
      ok: false,
      error: { type: 'invalid-argument', field: 'path' },
    })
  })

  it('accepts uploads and lets only those be named for import', async () => {
    const { server } = await start()
    const res = await raw(`${server.url}upload?name=${encodeURIComponent('../../x.csv')}`, {
      method: 'POST',
      headers: { 'x-winnow-token': server.token },
      body: 'a,b\n1,2\n',
    })
    const outcome = JSON.parse(res.body) as {
      ok: boolean
      value: { ref: { kind: string; id: string }; name: string; bytes: number }
    }
    expect(outcome).toMatchObject({
      ok: true,
      value: { name: 'x.csv', bytes: 8, ref: { kind: 'upload' } },
    })
    expect(server.session.resolveFile(outcome.value.ref as never).name).toBe('x.csv')
  })

  it('answers a malformed address with 400, before and after the token check', async () => {
    const { server } = await start()
    const errors: unknown[] = []
    const original = console.error
    console.error = (...args: unknown[]) => errors.push(args)
    try {
      expect((await raw(`${server.url}%E0%A4%A`)).status).toBe(400)
      const api = await raw(`${server.url}api/%E0%A4%A`, {
        method: 'POST',
        headers: { 'x-winnow-token': server.token },
        body: '{}',
      })
      expect(api.status).toBe(400)
    } finally {
      console.error = original
    }
    expect(errors).toEqual([])
  })

  it('refuses an upload over the cap with 413 and keeps nothing of it', async () => {
    const { server } = await start(100)
    const upload = (body: string, headers: Record<string, string> = {}) =>
      raw(`${server.url}upload?name=big.csv`, {
        method: 'POST',
        headers: { 'x-winnow-token': server.token, ...headers },
        body,
      })
    const declared = await upload('x'.repeat(101))
    expect(declared.status).toBe(413)
    expect(declared.body).toMatch(/larger than this server takes/)
    const streamed = await upload('y'.repeat(5000), { 'transfer-encoding': 'chunked' })
    expect(streamed.status).toBe(413)
    expect((await upload('a,b\n1,2\n')).status).toBe(200)
  })

  it('refuses an upload whose name is not a file name with 400, and keeps serving', async () => {
    const { server } = await start()
    const errors: unknown[] = []
    const original = console.error
    console.error = (...args: unknown[]) => errors.push(args)
    try {
      for (const name of ['..', '.', 'a/..', 'x\u0000.csv', `${'n'.repeat(300)}.csv`]) {
        const res = await raw(`${server.url}upload?name=${encodeURIComponent(name)}`, {
          method: 'POST',
          headers: { 'x-winnow-token': server.token },
          body: 'a,b\n1,2\n',
        })
        expect(res.status).toBe(400)
        expect(JSON.parse(res.body)).toMatchObject({
          ok: false,
          error: { type: 'invalid-argument', code: 'bad-upload-name', field: 'name' },
        })
        expect((JSON.parse(res.body) as { error: { message: string } }).error.message).toMatch(
          /^The upload's name '.*' is not a file name/,
        )
      }
    } finally {
      console.error = original
    }
    expect(errors).toEqual([])
    const ok = await raw(`${server.url}upload?name=a.csv`, {
      method: 'POST',
      headers: { 'x-winnow-token': server.token },
      body: 'a,b\n1,2\n',
    })
    expect(ok.status).toBe(200)
  })

  it('answers an API body over 1 MB with 413, saying it is too large', async () => {
    const { server } = await start()
    const call = (body: string, headers: Record<string, string> = {}) =>
      raw(`${server.url}api/app.info`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-winnow-token': server.token, ...headers },
        body,
      })
    const big = JSON.stringify({ padding: 'x'.repeat(1 << 20) })
    for (const res of [await call(big), await call(big, { 'transfer-encoding': 'chunked' })]) {
      expect(res.status).toBe(413)
      expect(JSON.parse(res.body)).toMatchObject({
        ok: false,
        error: {
          type: 'invalid-argument',
          code: 'body-too-large',
          message: 'The request body is larger than this server takes (1 MB).',
        },
      })
    }
    expect((await call('{"not json')).status).toBe(400)
    expect((await call('{}')).status).toBe(200)
  })

  it('removes upload folders that a killed run left behind', async () => {
    const { spawnSync } = await import('node:child_process')
    const { existsSync, mkdtempSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'])
    const left = mkdtempSync(join(tmpdir(), `winnow-uploads-${gone.stdout.toString()}-`))
    writeFileSync(join(left, 'half.csv'), 'a,b\n')
    await start()
    expect(existsSync(left)).toBe(false)
  })
})
