import type { CommandIo } from './command'

/** A one-line progress bar on stderr for interactive runs. */
export function progressLine(io: CommandIo, unit: 'bytes' | 'items') {
  const started = Date.now()
  let last = 0
  return {
    update(done: number, total: number | null, records: number) {
      const now = Date.now()
      if (now - last < 100) return
      last = now
      const seconds = Math.max((now - started) / 1000, 0.001)
      const share = total ? done / total : 0
      const bar = '#'.repeat(Math.round(share * 30)).padEnd(30, '.')
      const amount = unit === 'bytes' ? `${(done / 1e6).toFixed(1)} MB` : String(done)
      io.stderr(
        `\r[${bar}] ${(share * 100).toFixed(0).padStart(3)}% ${amount} ${Math.round(records / seconds)} rows/s `,
      )
    },
    done() {
      io.stderr('\r' + ' '.repeat(79) + '\r')
    },
  }
}
