import { randomBytes, timingSafeEqual } from 'node:crypto'
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs'
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import type { EventName } from '../../shared/contract'
import { dispatch } from '../api/dispatch'
import { Session, type SessionOptions } from '../session'
import { serveStatic } from './static'

export interface ServeOptions {
  /** The built renderer (out/renderer). */
  rendererDir: string
  port?: number
  /** Defaults to a fresh random token per run. */
  token?: string
  session?: SessionOptions
}

export interface RunningServer {
  url: string
  /** The address to open: the token travels in the fragment, never to the server's logs. */
  openUrl: string
  token: string
  session: Session
  close(): Promise<void>
}

const MAX_BODY = 1 << 20

/**
 * Serve mode: the page and the same API over HTTP, bound to 127.0.0.1, every API request carrying
 * the per-run token. Host headers are checked so another site cannot reach it by DNS rebinding.
 */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const token = options.token ?? randomBytes(24).toString('hex')
  const expected = Buffer.from(token)
  const streams = new Set<ServerResponse>()
  const uploadDir = mkdtempSync(join(tmpdir(), 'winnow-uploads-'))
  const session = new Session(
    'serve',
    (name: EventName, payload: unknown) => {
      const frame = `data: ${JSON.stringify({ name, payload })}\n\n`
      for (const stream of streams) stream.write(frame)
    },
    options.session,
  )
  let port = 0

  const authorised = (req: IncomingMessage): boolean => {
    const given = req.headers['x-winnow-token']
    if (typeof given !== 'string') return false
    const buffer = Buffer.from(given)
    return buffer.length === expected.length && timingSafeEqual(buffer, expected)
  }

  const hostAllowed = (req: IncomingMessage): boolean =>
    req.headers.host === `127.0.0.1:${port}` || req.headers.host === `localhost:${port}`

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      console.error('serve: request failed', error)
      if (!res.headersSent)
        send(res, 500, {
          ok: false,
          error: { type: 'internal', code: 'internal', message: 'internal error' },
        })
      else res.end()
    })
  })

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!hostAllowed(req)) return send(res, 403, { error: 'forbidden host' })
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`)
    if (
      url.pathname.startsWith('/api/') ||
      url.pathname === '/events' ||
      url.pathname === '/upload'
    ) {
      if (!authorised(req))
        return send(res, 401, {
          ok: false,
          error: { type: 'invalid-argument', code: 'token', message: 'missing or wrong token' },
        })
    }
    if (req.method === 'POST' && url.pathname.startsWith('/api/')) {
      const name = decodeURIComponent(url.pathname.slice('/api/'.length))
      const body = await readJson(req)
      if (body === undefined)
        return send(res, 400, {
          ok: false,
          error: {
            type: 'invalid-argument',
            code: 'bad-json',
            message: 'request body is not JSON',
          },
        })
      return send(res, 200, await dispatch(name, body, { session }))
    }
    if (req.method === 'GET' && url.pathname === '/events') {
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-store',
        connection: 'keep-alive',
      })
      res.write(': connected\n\n')
      streams.add(res)
      req.on('close', () => streams.delete(res))
      return
    }
    if (req.method === 'POST' && url.pathname === '/upload') {
      const name = basename(url.searchParams.get('name') ?? 'upload.csv') || 'upload.csv'
      const path = join(mkdtempSync(join(uploadDir, 'u-')), name)
      await pipeline(req, createWriteStream(path))
      return send(res, 200, { ok: true, value: session.registerUpload(path, name) })
    }
    if (req.method === 'GET' || req.method === 'HEAD')
      return serveStatic(options.rendererDir, url.pathname, res)
    send(res, 405, { error: 'method not allowed' })
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve())
  })
  port = (server.address() as AddressInfo).port
  const url = `http://127.0.0.1:${port}/`
  return {
    url,
    openUrl: `${url}#token=${token}`,
    token,
    session,
    async close() {
      for (const stream of streams) stream.end()
      // Stop accepting, then drop kept-alive connections, or close() would wait for the browser.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeAllConnections()
      await closed
      for (const job of session.jobs.list()) session.jobs.cancel(job.id)
      await session.jobs.idle()
      session.close()
      rmSync(uploadDir, { recursive: true, force: true })
    },
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  })
  res.end(text)
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_BODY) return undefined
    chunks.push(chunk)
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as unknown
  } catch {
    return undefined
  }
}
