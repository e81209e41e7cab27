import { spawnSync } from 'node:child_process'

export function seconds(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9
}

/** Wall time of a command (the reference tools run as the user would run them). */
export function timeCommand(command: string, args: string[], input?: string): number {
  const start = process.hrtime.bigint()
  const result = spawnSync(command, args, {
    input,
    stdio: [input === undefined ? 'ignore' : 'pipe', 'ignore', 'inherit'],
  })
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed`)
  return seconds(start)
}

export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  const at = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))
  return sorted[at] ?? NaN
}

export function hasCommand(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0
}

export function table(rows: (string | number)[][]): string {
  const [head, ...body] = rows
  if (!head) return ''
  const line = (r: (string | number)[]) => `| ${r.join(' | ')} |`
  return [line(head), line(head.map(() => '---')), ...body.map(line)].join('\n')
}

/** mulberry32: the same seeded filters and jumps on every run of every benchmark. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = Math.imul(a ^ (a >>> 15), a | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
