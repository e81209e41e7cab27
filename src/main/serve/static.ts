import { createReadStream, statSync } from 'node:fs'
import type { ServerResponse } from 'node:http'
import { extname, join, normalize, sep } from 'node:path'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
}

/** The same policy the desktop window enforces through index.html. */
const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

/** Files of the built page only; anything outside the folder is refused. */
export function serveStatic(root: string, pathname: string, res: ServerResponse): void {
  let decoded: string
  try {
    decoded = decodeURIComponent(pathname === '/' ? '/index.html' : pathname)
  } catch {
    res.writeHead(400, { 'content-type': 'text/plain' }).end('bad request: malformed address')
    return
  }
  const relative = normalize(decoded)
  const file = join(root, relative)
  if (!file.startsWith(root + sep)) {
    res.writeHead(403).end()
    return
  }
  let size: number
  try {
    const stat = statSync(file)
    if (!stat.isFile()) throw new Error('not a file')
    size = stat.size
  } catch {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
    return
  }
  res.writeHead(200, {
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'content-length': size,
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-cache',
  })
  createReadStream(file).pipe(res)
}
