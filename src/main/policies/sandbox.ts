import variant from '@jitl/quickjs-wasmfile-release-sync'
import {
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSRuntime,
  newQuickJSWASMModuleFromVariant,
  shouldInterruptAfterDeadline,
} from 'quickjs-emscripten-core'
import { transform } from 'sucrase'
import { UserError } from '../../shared/contract/errors'
import { PRELUDE, PRELUDE_FILE } from './prelude'

/**
 * Policies run in QuickJS compiled to WebAssembly (docs/decisions.md "Policies run in QuickJS"):
 * nothing of Node is reachable from inside, and time, memory and stack are bounded by the engine.
 * Each run gets its own engine instance, so whatever a script does to one never reaches the next.
 */

export interface SandboxLimits {
  /** Wall time for everything the script does, in ms. */
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

interface EngineError {
  name?: string
  message?: string
  stack?: string
  lineNumber?: number
}

/** One loaded script in its own engine; call `dispose` when done. */
export class PolicySandbox {
  private constructor(
    private readonly runtime: QuickJSRuntime,
    private readonly vm: QuickJSContext,
    readonly file: string,
    private readonly limits: SandboxLimits,
  ) {}

  /** Starts an engine, runs the prelude and the policy's top level. */
  static async load(
    source: string,
    file: string,
    limits: SandboxLimits = DEFAULT_LIMITS,
    facts: (kind: string) => string = () => '{}',
  ): Promise<PolicySandbox> {
    const code = compilePolicy(source, file)
    const engine = await newQuickJSWASMModuleFromVariant(variant)
    const runtime = engine.newRuntime()
    runtime.setMemoryLimit(limits.memoryBytes)
    runtime.setMaxStackSize(STACK_BYTES)
    runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + limits.timeMs))
    const vm = runtime.newContext()
    const sandbox = new PolicySandbox(runtime, vm, file, limits)
    try {
      sandbox.setGlobal('__seed', vm.newNumber(limits.seed))
      sandbox.setGlobal('__policyFile', vm.newString(file))
      sandbox.setGlobal(
        '__fact',
        vm.newFunction('__fact', (kind) => vm.newString(facts(vm.getString(kind)))),
      )
      sandbox.evaluate(PRELUDE, PRELUDE_FILE).dispose()
      sandbox.evaluate(code, file).dispose()
      return sandbox
    } catch (error) {
      sandbox.dispose()
      throw error
    }
  }

  /** The policy's name, description and parameter declarations, as the script wrote them. */
  describe(): unknown {
    return JSON.parse(this.callForString('__describe', []))
  }

  /** Runs `rules(facts, params)`; returns what it returned (checked by the caller). */
  rules(factsJson: string, paramsJson: string): unknown {
    // The time limit counts the script, not the host's reading of the facts before it.
    this.runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + this.limits.timeMs))
    return JSON.parse(this.callForString('__run', [factsJson, paramsJson]))
  }

  dispose(): void {
    try {
      this.vm.dispose()
      this.runtime.dispose()
    } catch {
      // A script stopped by the memory limit can leave the engine unable to free itself; the
      // engine instance is this run's alone, so it is simply dropped.
    }
  }

  private setGlobal(name: string, handle: QuickJSHandle): void {
    this.vm.setProp(this.vm.global, name, handle)
    handle.dispose()
  }

  private callForString(name: string, args: string[]): string {
    const fn = this.vm.getProp(this.vm.global, name)
    const handles = args.map((a) => this.vm.newString(a))
    try {
      const result = this.guard(() => this.vm.callFunction(fn, this.vm.undefined, ...handles))
      if (result.error) throw this.failure(result.error)
      const text = this.vm.getString(result.value)
      result.value.dispose()
      return text
    } finally {
      fn.dispose()
      for (const h of handles) h.dispose()
    }
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

  /** Turns an error thrown inside the engine into a message with the script's line. */
  private failure(handle: QuickJSHandle): PolicyError {
    let error: EngineError
    try {
      const dumped: unknown = this.vm.dump(handle)
      error = typeof dumped === 'object' && dumped !== null ? dumped : { message: String(dumped) }
    } finally {
      handle.dispose()
    }
    const at = { file: this.file, ...locate(error, this.file) }
    const message = error.message ?? 'unknown error'
    if (error.name === 'InternalError' && message === 'interrupted') {
      return new PolicyError(
        'policy-timeout',
        `The policy ran longer than its time limit (${this.limits.timeMs / 1000} s) and was stopped.`,
        at,
      )
    }
    if (message === 'out of memory') {
      return new PolicyError(
        'policy-memory',
        `The policy used more than its memory limit (${Math.round(this.limits.memoryBytes / 2 ** 20)} MB) and was stopped.`,
        at,
      )
    }
    if (message === 'stack overflow') {
      return new PolicyError('policy-stack', 'The policy recursed too deeply (stack overflow).', at)
    }
    if (error.name === 'SyntaxError') {
      return new PolicyError('policy-syntax', `Syntax error: ${message}`, at)
    }
    const name = error.name && error.name !== 'Error' ? `${error.name}: ` : ''
    return new PolicyError('policy-error', `${name}${message}`, at)
  }
}

/** The first place in the policy file the engine's stack names. */
function locate(error: EngineError, file: string): { line?: number; column?: number } {
  const marker = `${file}:`
  for (const frame of (error.stack ?? '').split('\n')) {
    const at = frame.lastIndexOf(marker)
    if (at < 0) continue
    const match = /^(\d+)(?::(\d+))?/.exec(frame.slice(at + marker.length))
    if (match?.[1]) {
      return {
        line: Number(match[1]),
        ...(match[2] !== undefined ? { column: Number(match[2]) } : {}),
      }
    }
  }
  return {}
}
