import variant from '@jitl/quickjs-wasmfile-release-sync'
import {
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSRuntime,
  newQuickJSWASMModuleFromVariant,
  newVariant,
} from 'quickjs-emscripten-core'
import { transform } from 'sucrase'
import { UserError } from '../../shared/contract/errors'
import { PRELUDE, PRELUDE_FILE } from './prelude'
import { type MarkedThrows, markThrows } from './throwLines'

/**
 * Policies run in QuickJS compiled to WebAssembly (docs/decisions.md "Policies run in QuickJS"):
 * nothing of Node is reachable from inside, and time, memory and stack are bounded by the engine.
 * Each run gets its own engine instance, so whatever a script does to one never reaches the next.
 */

export interface SandboxLimits {
  /** Wall time for everything the script does, in ms; selecting what its rules move gets as much. */
  timeMs: number
  memoryBytes: number
  /** Seed of Math.random and `random()`. */
  seed: number
}

export const DEFAULT_LIMITS: SandboxLimits = {
  timeMs: 10_000,
  memoryBytes: 256 * 1024 * 1024,
  seed: 1,
}

/** Well inside the host's own stack, which the engine's recursion shares. */
const STACK_BYTES = 256 * 1024

/**
 * The engine's WebAssembly memory beyond the script's limit: the engine's own stack and data, the
 * facts on their way in, and what its allocator cannot hand out again. The engine counts only
 * what it allocates; without a maximum on the memory itself, a script that allocates and frees
 * large strings grows the process to 2 GB while staying under the count.
 */
const WASM_ROOM = 64 * 2 ** 20
/** 16 MB, the engine's own starting size. */
const WASM_PAGES_AT_START = 256
type MemoryConstructor = new (size: { initial: number; maximum: number }) => object
/** Node's own; the project's type libraries (ES2023, Node) declare WebAssembly as types only. */
const WasmMemory = (globalThis as unknown as { WebAssembly: { Memory: MemoryConstructor } })
  .WebAssembly.Memory

/** The JSON a script's rules or definition may come to, checked before it leaves the engine. */
const RESULT_LIMIT_CHARS = 16 * 2 ** 20
/** What a thrown value's description may come to (the prelude cuts its fields shorter). */
const DESCRIPTION_LIMIT_CHARS = 64 * 1024
/** The clock and memory given to reading a thrown value, which may run the script's getters. */
const DESCRIBE_MS = 200
const DESCRIBE_ROOM = 4 * 2 ** 20

/** A failure of the script, with its line where known. */
export class PolicyError extends UserError {
  constructor(code: string, message: string, at: { file: string; line?: number; column?: number }) {
    super({
      type: 'input',
      code,
      message,
      file: at.file,
      ...(at.line !== undefined ? { line: at.line } : {}),
      ...(at.column !== undefined ? { column: at.column } : {}),
    })
  }
}

/**
 * TypeScript (or JavaScript) to plain script text with the same line numbers, so the engine's
 * lines are the file's. Types are stripped, not checked.
 */
function compilePolicy(source: string, file: string): string {
  try {
    return transform(source, {
      transforms: ['typescript', 'imports'],
      filePath: file,
      disableESTransforms: true,
    }).code
  } catch (error) {
    const loc = (error as { loc?: { line: number; column: number } }).loc
    const message = error instanceof Error ? error.message.replace(/\s*\(\d+:\d+\)$/, '') : ''
    throw new PolicyError(
      'policy-syntax',
      `Syntax error: ${message}`,
      loc ? { file, line: loc.line, column: loc.column + 1 } : { file },
    )
  }
}

/** What the prelude's `describeError` says of a thrown value (see prelude.ts). */
interface Thrown {
  /** Set for an Error. */
  name?: string
  message?: string
  stack?: string
  /** Set for anything else: "an object", "a string", … and the value as JSON, cut short. */
  kind?: string
  shown?: string
  /** The line of the last `throw` statement the policy ran. */
  thrownAt?: number
  /** Reading the value itself failed. */
  unreadable?: boolean
}

/** A value JSON cannot carry (NaN, a cycle), at its path in what the script returned. */
interface Unsendable {
  path: string[]
  problem: string
  /** The line of the rule it is in, where `rule()` recorded it. */
  line?: number
}

/** The engine's entry points the prelude hands the host (never reachable from the script). */
interface Entry {
  run: QuickJSHandle
  describe: QuickJSHandle
  describeError: QuickJSHandle
}

/** One loaded script in its own engine; call `dispose` when done. */
export class PolicySandbox {
  private deadline = 0
  private timedOut = false
  private entry: Entry | null = null

  private constructor(
    private readonly runtime: QuickJSRuntime,
    private readonly vm: QuickJSContext,
    readonly file: string,
    private readonly limits: SandboxLimits,
    private readonly marked: MarkedThrows,
  ) {}

  /** Starts an engine, runs the prelude and the policy's top level. */
  static async load(
    source: string,
    file: string,
    limits: SandboxLimits = DEFAULT_LIMITS,
    facts: (kind: string) => string = () => '{}',
  ): Promise<PolicySandbox> {
    const marked = markThrows(compilePolicy(source, file))
    // The engine's whole memory, not only what its allocator counts, is bounded (see WASM_ROOM).
    const pages = Math.max(WASM_PAGES_AT_START, Math.ceil((limits.memoryBytes + WASM_ROOM) / 65536))
    const engine = await newQuickJSWASMModuleFromVariant(
      newVariant(variant, {
        wasmMemory: new WasmMemory({ initial: WASM_PAGES_AT_START, maximum: pages }),
      }),
    )
    const runtime = engine.newRuntime()
    runtime.setMemoryLimit(limits.memoryBytes)
    runtime.setMaxStackSize(STACK_BYTES)
    const vm = runtime.newContext()
    const sandbox = new PolicySandbox(runtime, vm, file, limits, marked)
    runtime.setInterruptHandler(() => sandbox.overdue())
    sandbox.startClock(limits.timeMs)
    try {
      sandbox.setGlobal('__seed', vm.newNumber(limits.seed))
      sandbox.setGlobal('__policyFile', vm.newString(file))
      sandbox.setGlobal(
        '__fact',
        vm.newFunction('__fact', (kind) =>
          vm.newString(vm.typeof(kind) === 'string' ? facts(vm.getString(kind)) : '{}'),
        ),
      )
      const entry = sandbox.evaluate(PRELUDE, PRELUDE_FILE)
      sandbox.entry = {
        run: vm.getProp(entry, 'run'),
        describe: vm.getProp(entry, 'describe'),
        describeError: vm.getProp(entry, 'describeError'),
      }
      entry.dispose()
      sandbox.evaluate(marked.code, file).dispose()
      return sandbox
    } catch (error) {
      sandbox.dispose()
      throw error
    }
  }

  /** The policy's name, description and parameter declarations, as the script wrote them. */
  describe(): unknown {
    return this.received('describe', [], 'definition')
  }

  /** Runs `rules(facts, params)`; returns what it returned (checked by the caller). */
  rules(factsJson: string, paramsJson: string): unknown {
    // The time limit counts the script, not the host's reading of the facts before it.
    this.startClock(this.limits.timeMs)
    return this.received('run', [factsJson, paramsJson], 'rules')
  }

  dispose(): void {
    try {
      const entry = this.entry
      if (entry)
        for (const handle of [entry.run, entry.describe, entry.describeError]) handle.dispose()
      this.vm.dispose()
      this.runtime.dispose()
    } catch {
      // A script stopped by the memory limit can leave the engine unable to free itself; the
      // engine instance is this run's alone, so it is simply dropped.
    }
  }

  private startClock(ms: number): void {
    this.deadline = Date.now() + ms
    this.timedOut = false
  }

  private overdue(): boolean {
    if (Date.now() < this.deadline) return false
    this.timedOut = true
    return true
  }

  private setGlobal(name: string, handle: QuickJSHandle): void {
    this.vm.setProp(this.vm.global, name, handle)
    handle.dispose()
  }

  /**
   * Calls an entry point, which answers `{"value": …}` as JSON text, or `{"unsendable": …}` for a
   * value JSON cannot carry (NaN, Infinity). The text's length is checked before it is copied out.
   */
  private received(
    name: 'run' | 'describe',
    args: string[],
    what: 'rules' | 'definition',
  ): unknown {
    const fn = this.entry?.[name]
    if (!fn) throw new Error('the policy sandbox is not loaded')
    const handles = args.map((a) => this.vm.newString(a))
    try {
      const result = this.guard(() => this.vm.callFunction(fn, this.vm.undefined, ...handles))
      if (result.error) throw this.failure(result.error)
      const text = result.value.consume((value) => this.crossing(value, what))
      const sent = JSON.parse(text) as { value?: unknown; unsendable?: Unsendable }
      if (sent.unsendable) throw this.unsendable(what, sent.unsendable)
      return sent.value
    } finally {
      for (const h of handles) h.dispose()
    }
  }

  /** A string of the engine's, copied out only when it is within `RESULT_LIMIT_CHARS`. */
  private crossing(value: QuickJSHandle, what: 'rules' | 'definition'): string {
    const length = this.textLength(value)
    if (length === undefined)
      throw new Error('the policy sandbox answered something other than text')
    if (length > RESULT_LIMIT_CHARS) {
      throw new PolicyError(
        'policy-too-large',
        `The policy's ${what} came to ${megabytes(length)} of JSON; at most ${megabytes(RESULT_LIMIT_CHARS)} may leave the sandbox.`,
        { file: this.file },
      )
    }
    return this.vm.getString(value)
  }

  /** A string's length, read without copying it out of the engine. */
  private textLength(value: QuickJSHandle): number | undefined {
    if (this.vm.typeof(value) !== 'string') return undefined
    return this.vm.getProp(value, 'length').consume((length) => this.vm.getNumber(length))
  }

  private unsendable(
    what: 'rules' | 'definition',
    { path, problem, line }: Unsendable,
  ): PolicyError {
    if (what === 'definition') {
      return new PolicyError(
        'policy-definition',
        `The policy's definition is invalid at ${path.join('.') || 'the top'}: ${problem}`,
        { file: this.file },
      )
    }
    const [index, ...rest] = path
    return new PolicyError(
      'policy-rules',
      index === undefined
        ? `The rules: ${problem}`
        : `Rule ${Number(index) + 1}${rest.length > 0 ? ` (${rest.join('.')})` : ''}: ${problem}`,
      line !== undefined ? { file: this.file, line } : { file: this.file },
    )
  }

  private evaluate(code: string, file: string): QuickJSHandle {
    const result = this.guard(() => this.vm.evalCode(code, file))
    if (result.error) throw this.failure(result.error)
    return result.value
  }

  /** The host's own stack overflowing under the engine is the script's deep recursion. */
  private guard<T>(run: () => T): T {
    try {
      return run()
    } catch (error) {
      if (error instanceof RangeError) throw this.stackOverflow({ file: this.file })
      throw error
    }
  }

  private stackOverflow(at: { file: string; line?: number; column?: number }): PolicyError {
    return new PolicyError('policy-stack', 'The policy recursed too deeply (stack overflow).', at)
  }

  /**
   * Reads what the script threw through the prelude's `describeError` (its getters and traps run
   * on a short clock of their own), then says what went wrong at the script's line.
   */
  private failure(handle: QuickJSHandle): PolicyError {
    const timedOut = this.timedOut
    let thrown: Thrown | null
    try {
      thrown = this.describeThrown(handle)
    } finally {
      handle.dispose()
    }
    const at = { file: this.file, ...this.locate(thrown) }
    if (timedOut) {
      return new PolicyError(
        'policy-timeout',
        `The policy ran longer than its time limit (${this.limits.timeMs / 1000} s) and was stopped.`,
        at,
      )
    }
    if (thrown === null || (thrown.unreadable && !thrown.kind && !thrown.name)) {
      return new PolicyError(
        'policy-error',
        'The policy stopped with an error that could not be read.',
        at,
      )
    }
    const { name, message } = thrown
    if (thrown.kind !== undefined) {
      const shown = thrown.shown !== undefined ? `: ${thrown.shown}` : ''
      return new PolicyError(
        'policy-error',
        `The policy threw ${thrown.kind}, not an Error${shown}. Throw new Error("…") to say what went wrong.`,
        at,
      )
    }
    if (name === 'InternalError' && message === 'out of memory') {
      return new PolicyError(
        'policy-memory',
        `The policy used more than its memory limit (${megabytes(this.limits.memoryBytes)}) and was stopped.`,
        at,
      )
    }
    if (name === 'InternalError' && message === 'stack overflow') return this.stackOverflow(at)
    if (name === 'SyntaxError') {
      return new PolicyError('policy-syntax', `Syntax error: ${message ?? ''}`, at)
    }
    if (!message) {
      const what = name || 'Error'
      return new PolicyError(
        'policy-error',
        `The policy threw ${/^[AEIOU]/.test(what) ? 'an' : 'a'} ${what} with no message.`,
        at,
      )
    }
    return new PolicyError(
      'policy-error',
      `${name && name !== 'Error' ? `${name}: ` : ''}${message}`,
      at,
    )
  }

  private describeThrown(handle: QuickJSHandle): Thrown | null {
    const describeError = this.entry?.describeError
    if (!describeError) return this.engineError(handle)
    this.startClock(DESCRIBE_MS)
    // Room to describe a value thrown near the memory limit, within the engine's headroom.
    this.runtime.setMemoryLimit(this.limits.memoryBytes + DESCRIBE_ROOM)
    try {
      const result = this.guard(() =>
        this.vm.callFunction(describeError, this.vm.undefined, handle),
      )
      if (result.error) {
        result.error.dispose()
        return null
      }
      return result.value.consume((value) => {
        const length = this.textLength(value)
        if (length === undefined || length > DESCRIPTION_LIMIT_CHARS) return null
        return JSON.parse(this.vm.getString(value)) as Thrown
      })
    } catch (error) {
      if (error instanceof PolicyError) return null
      throw error
    } finally {
      this.runtime.setMemoryLimit(this.limits.memoryBytes)
      this.timedOut = false
    }
  }

  /** Before the prelude has run (it cannot fail but for the limits): the engine's own error. */
  private engineError(handle: QuickJSHandle): Thrown | null {
    const dumped: unknown = this.vm.dump(handle)
    return typeof dumped === 'object' && dumped !== null
      ? { ...(dumped as Thrown) }
      : { name: 'Error', message: String(dumped) }
  }

  /**
   * The first place in the policy file the stack names (its column as the file has it), else the
   * last throw statement the policy ran: a thrown value that is not an Error carries no stack.
   */
  private locate(thrown: Thrown | null): { line?: number; column?: number } {
    const marker = `${this.file}:`
    const stack = thrown?.kind === undefined ? thrown?.stack : undefined
    for (const frame of (stack ?? '').split('\n')) {
      const at = frame.lastIndexOf(marker)
      if (at < 0) continue
      const match = /^(\d+)(?::(\d+))?/.exec(frame.slice(at + marker.length))
      if (match?.[1]) {
        const line = Number(match[1])
        return {
          line,
          ...(match[2] !== undefined ? { column: this.marked.column(line, Number(match[2])) } : {}),
        }
      }
    }
    const line = thrown?.thrownAt
    return typeof line === 'number' && (thrown?.kind !== undefined || stack === undefined)
      ? { line }
      : {}
  }
}

function megabytes(bytes: number): string {
  return `${Math.round(bytes / 2 ** 20)} MB`
}
