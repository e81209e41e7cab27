import type { CommandIo } from './command'

const WIDTH = 79

/**
 * A one-line progress bar on stderr for interactive runs, redrawn in place:
 * `[##########..............]  43% 76.5 MB 31,004 rows/s` while records are counted, and
 * `[########################] 100% 178.3 MB  Building indexes (2 of 9)` once a named step is
 * under way (a rate means nothing there). `amount` says what `done` counts (bytes are shown in
 * MB); `per` names the records counted for the rate. Redrawn at most every 100 ms, and at once
 * when a new step begins.
 */
export function progressLine(io: CommandIo, amount: 'bytes' | 'items', per: string) {
  const started = Date.now()
  let last = 0
  let lastStep: string | undefined
  return {
    update(done: number, total: number | null, records: number, step?: string) {
      const now = Date.now()
      const newStep = step !== lastStep
      if (!newStep && now - last < 100) return
      last = now
      lastStep = step
      const seconds = Math.max((now - started) / 1000, 0.001)
      const share = total ? Math.min(done / total, 1) : 0
      const bar = '#'.repeat(Math.round(share * 24)).padEnd(24, '.')
      const counted =
        amount === 'bytes'
          ? `${(done / 1e6).toFixed(1)} MB`
          : total
            ? `${count(done)} of ${count(total)}`
            : count(done)
      const line = `[${bar}] ${(share * 100).toFixed(0).padStart(3)}% ${counted}`
      const tail = step ? `  ${step}` : ` ${count(Math.round(records / seconds))} ${per}/s`
      io.stderr(`\r${(line + tail).slice(0, WIDTH).padEnd(WIDTH)}`)
    },
    done() {
      io.stderr('\r' + ' '.repeat(WIDTH) + '\r')
    },
  }
}

function count(n: number): string {
  return n.toLocaleString('en-US')
}
