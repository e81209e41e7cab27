/**
 * A local server speaking the MTurk Requester wire protocol (AWS JSON 1.1, 2017-01-17) on
 * 127.0.0.1, for tests and for trying Winnow without an AWS account. Signatures are not verified;
 * the authorization scope, target and content type are (FORMATS §3.1).
 */
import { randomUUID } from 'node:crypto'
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type Fault, FaultDice, type FaultPlan } from './faults'
import type { Operation } from './operation'
import { workOperations } from './ops-work'
import { workerOperations } from './ops-workers'
import { StandinState } from './state'
import { validate } from './validate'
import { StandinError, errorBody } from './wire'

export interface StandinOptions {
  /** 0 (the default) picks a free port. */
  port?: number
  faults?: FaultPlan
  /** Epoch milliseconds; drives timestamps, auto-approval and disposal. */
  clock?: () => number
  /** Receives one line per request (operation, status, request id, fault); never headers. */
  log?: (line: string) => void
}

export interface Standin {
  url: string
  port: number
  state: StandinState
  setFaults(plan: FaultPlan): void
  close(): Promise<void>
}

const TARGET_PREFIX = 'MTurkRequesterServiceV20170117.'
const CONTENT_TYPE = 'application/x-amz-json-1.1'
const MAX_BODY = 8 * 1024 * 1024
/** A long-running demo keeps the most recent requests only. */
const MAX_LOG = 50_000

const operations: Readonly<Record<string, Operation>> = {
  ...workOperations,
  ...workerOperations,
}

export async function createStandin(options: StandinOptions = {}): Promise<Standin> {
  const state = new StandinState(options.clock ?? Date.now)
  const dice = new FaultDice(options.faults)
  const server = createServer((req, res) => {
    readBody(req)
      .then((body) => handle(req, res, body))
      .catch(() => req.socket.destroy())
  })

  function record(
    entry: { operation: string; requestId: string; input: unknown; status: number },
    extra: { error?: StandinError; fault?: Fault } = {},
  ): void {
    state.requests.push({
      at: state.now(),
      ...entry,
      ...(extra.error ? { errorType: extra.error.type } : {}),
      ...(extra.error?.turkErrorCode ? { errorCode: extra.error.turkErrorCode } : {}),
      ...(extra.fault ? { fault: extra.fault } : {}),
    })
    if (state.requests.length > MAX_LOG) state.requests.splice(0, MAX_LOG / 5)
    const what = extra.fault ?? extra.error?.turkErrorCode ?? extra.error?.type ?? ''
    options.log?.(`${entry.operation} ${entry.status} ${entry.requestId} ${what}`.trimEnd())
  }

  function reply(res: ServerResponse, requestId: string, status: number, body: unknown): void {
    const text = JSON.stringify(body)
    res.writeHead(status, {
      'content-type': CONTENT_TYPE,
      'content-length': Buffer.byteLength(text),
      'x-amzn-RequestId': requestId,
    })
    res.end(text)
  }

  async function handle(req: IncomingMessage, res: ServerResponse, body: string): Promise<void> {
    const requestId = randomUUID()
    const target = String(req.headers['x-amz-target'] ?? '')
    const operation = target.startsWith(TARGET_PREFIX) ? target.slice(TARGET_PREFIX.length) : target
    const fail = (e: StandinError, input: unknown = null, fault?: Fault): void => {
      record(
        { operation, requestId, input, status: e.status },
        { error: e, ...(fault ? { fault } : {}) },
      )
      reply(res, requestId, e.status, errorBody(e, state.now()))
    }

    const refused = checkEnvelope(req, operation)
    if (refused) return fail(refused)
    let input: Record<string, unknown>
    try {
      const parsed = JSON.parse(body === '' ? '{}' : body) as unknown
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error()
      input = parsed as Record<string, unknown>
    } catch {
      return fail(new StandinError('SerializationException', 'The request body is not JSON.'))
    }

    const { fault, delayMs } = dice.roll(operation)
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs))
    if (fault === 'drop') {
      record({ operation, requestId, input, status: 0 }, { fault })
      req.socket.destroy()
      return
    }
    if (fault === 'throttle') {
      return fail(new StandinError('ThrottlingException', 'Rate exceeded'), input, fault)
    }
    if (fault === 'unavailable') {
      return fail(new StandinError('ServiceUnavailable', 'Service Unavailable', 503), input, fault)
    }
    if (fault === 'serviceFault') {
      const e = new StandinError('ServiceFault', 'We encountered an unexpected error.', 500)
      return fail(e, input, fault)
    }

    const op = operations[operation] as Operation
    let output: Record<string, unknown>
    try {
      output = op.run(validate(input, op.rules), { state, requestId })
    } catch (e) {
      if (e instanceof StandinError) return fail(e, input)
      return fail(new StandinError('ServiceFault', 'Internal error in the stand-in.', 500), input)
    }
    if (fault === 'lostSuccess') {
      record({ operation, requestId, input, status: 0 }, { fault })
      req.socket.destroy()
      return
    }
    record({ operation, requestId, input, status: 200 })
    reply(res, requestId, 200, output)
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    state,
    setFaults: (plan) => dice.set(plan),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** The checks a signed AWS JSON 1.1 request must pass before its body is looked at. */
function checkEnvelope(req: IncomingMessage, operation: string): StandinError | undefined {
  if (req.method !== 'POST' || (req.url ?? '/') !== '/') {
    return new StandinError('UnknownOperationException', 'Only POST / is served.', 404)
  }
  const auth = String(req.headers.authorization ?? '')
  if (auth === '') {
    return new StandinError(
      'MissingAuthenticationTokenException',
      'Missing Authentication Token',
      403,
    )
  }
  if (
    !auth.startsWith('AWS4-HMAC-SHA256 Credential=') ||
    !auth.includes('/us-east-1/mturk-requester/aws4_request')
  ) {
    return new StandinError(
      'IncompleteSignatureException',
      'Credential should be scoped to us-east-1/mturk-requester/aws4_request.',
      403,
    )
  }
  if (!String(req.headers['content-type'] ?? '').startsWith(CONTENT_TYPE)) {
    return new StandinError('SerializationException', `Content type must be ${CONTENT_TYPE}.`)
  }
  if (!Object.hasOwn(operations, operation)) {
    return new StandinError('UnknownOperationException', `Unknown operation ${operation}.`)
  }
  return undefined
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY) reject(new Error('body too large'))
      else chunks.push(chunk)
    })
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}
