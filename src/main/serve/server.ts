import { randomBytes, timingSafeEqual } from 'node:crypto'
import { createWriteStream, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import type { EventName } from '../../shared/contract'
import { dispatch } from '../api/dispatch'
import { showValue } from '../importers/errors'
import { Session, type SessionOptions } from '../session'
import { serveStatic } from './static'
import { processAlive } from '../jobs/processAlive'

export interface ServeOptions {
  /** The built renderer (out/renderer). */
  rendererDir: string
  port?: number
  /** Defaults to a fresh random token per run. */
  token?: string
  session?: SessionOptions
  /** The largest upload taken, in bytes (`DEFAULT_MAX_UPLOAD_BYTES`); larger ones get a 413. */
  maxUploadBytes?: number
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
/** The longest file name most file systems take, in bytes. */
const MAX_NAME_BYTES = 255
/** The largest file an upload may send unless the server is told otherwise (the release is ~210 MB). */
const DEFAULT_MAX_UPLOAD_BYTES = 1 << 30
const UPLOADS_PREFIX = 'winnow-uploads-'

/**
 * Serve mode: the page and the same API over HTTP, bound to 127.0.0.1, every API request carrying
 * the per-run token. Host headers are checked so another site cannot reach it by DNS rebinding.
 */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const token = options.token ?? randomBytes(24).toString('hex')
  const expected = Buffer.from(token)
  const streams = new Set<ServerResponse>()
  removeLeftUploads()
  const uploadDir = mkdtempSync(join(tmpdir(), `${UPLOADS_PREFIX}${process.pid}-`))
  const maxUpload = options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES
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
      let name: string
      try {
        name = decodeURIComponent(url.pathname.slice('/api/'.length))
      } catch {
        return send(res, 400, {
          ok: false,
          error: { type: 'invalid-argument', code: 'bad-address', message: 'malformed address' },
        })
      }
      const body = await readJson(req)
      if (body === TOO_LARGE)
        return send(res, 413, {
          ok: false,
          error: {
            type: 'invalid-argument',
            code: 'body-too-large',
            message: `The request body is larger than this server takes (${MAX_BODY / (1 << 20)} MB).`,
          },
        })
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
      const given = url.searchParams.get('name') ?? 'upload.csv'
      const name = basename(given) || 'upload.csv'
      if (!isFileName(name)) {
        send(res, 400, {
          ok: false,
          error: {
            type: 'invalid-argument',
            code: 'bad-upload-name',
            message: `The upload's name ${showValue(given)} is not a file name.`,
            field: 'name',
          },
        })
        req.resume()
        return
      }
      const declared = Number(req.headers['content-length'] ?? 0)
      if (declared > maxUpload) return refuseUpload(req, res, maxUpload)
      const folder = mkdtempSync(join(uploadDir, 'u-'))
      const path = join(folder, name)
      let size = 0
      const counted = async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          size += chunk.length
          if (size > maxUpload) throw new UploadTooLarge()
          yield chunk
        }
      }
      try {
        await pipeline(req, counted, createWriteStream(path))
      } catch (error) {
        rmSync(folder, { recursive: true, force: true })
        if (error instanceof UploadTooLarge) return refuseUpload(req, res, maxUpload)
        throw error
      }
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

class UploadTooLarge extends Error {}

function refuseUpload(req: IncomingMessage, res: ServerResponse, max: number): void {
  send(res, 413, {
    ok: false,
    error: {
      type: 'invalid-argument',
      code: 'upload-too-large',
      message: `The file is larger than this server takes (${Math.round(max / 1e6)} MB); import it with winnow import, or start winnow serve with a larger --max-upload-mb.`,
    },
  })
  // Stop reading what is left of the body; the answer is already on its way.
  req.resume()
}

/** Upload folders of earlier runs that were killed (their process is gone) are removed. */
function removeLeftUploads(): void {
  let names: string[]
  try {
    names = readdirSync(tmpdir())
  } catch {
    return
  }
  for (const name of names) {
    const m = new RegExp(`^${UPLOADS_PREFIX}(\\d+)-`).exec(name)
    if (!m || processAlive(Number(m[1]))) continue
    rmSync(join(tmpdir(), name), { recursive: true, force: true })
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

/** What a name may be to become a file in the upload folder: no `.`/`..`, controls or overlength. */
function isFileName(name: string): boolean {
  return (
    name !== '.' &&
    name !== '..' &&
    ![...name].some((ch) => ch.charCodeAt(0) < 32) &&
    Buffer.byteLength(name) <= MAX_NAME_BYTES
  )
}

const TOO_LARGE = Symbol('too large')

/** The body as JSON; undefined when it is not JSON, TOO_LARGE past `MAX_BODY` (the rest drained). */
function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const take = (chunk: Buffer): void => {
      size += chunk.length
      if (size <= MAX_BODY) {
        chunks.push(chunk)
        return
      }
      // Answer now and let the rest of the body flow away unread, as a refused upload does.
      req.off('data', take)
      req.off('end', parse)
      req.resume()
      resolve(TOO_LARGE)
    }
    const parse = (): void => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as unknown)
      } catch {
        resolve(undefined)
      }
    }
    req.on('data', take)
    req.once('end', parse)
    req.once('error', reject)
  })
}
