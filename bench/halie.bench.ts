// HALIE: importing all five tasks' standardised tables (about 18,000 event blocks) into a project,
// beside the sqlite3 shell's `.import` of the same CSVs into flat tables, same run; and seeking in a
// 5,000-event raw log (a kept document plus fewer than 64 events) beside replaying it from the
// start to the same moments; and the work of one frame of 16× playback (the events since the last
// frame, the model's offer and the document's lines; the browser's drawing is not in this figure).
//   npx tsx bench/halie.bench.ts [--write]       (or: npm run bench -- halie)
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { halieSourcesIn } from '../src/main/collections/halie/read'
import { importIntoProject } from '../src/main/importers/intoProject'
import { type LogEvent, parseLogLine } from '../src/shared/halie/logEvents'
import {
  Playback,
  Replay,
  applyEvent,
  documentLines,
  offerTimeline,
} from '../src/shared/halie/replay'
import { largest } from '../src/shared/lists'
import { generateLog, random, writeHalieFolder } from '../tests/helpers/halie'
import { writeSection } from './lib/benchmarksDoc'
import { hasCommand, quantile, seconds, table, timeCommand } from './lib/measure'

if (!hasCommand('sqlite3')) {
  console.error(
    'the HALIE benchmark needs the sqlite3 shell (apt-get install sqlite3) as its reference',
  )
  process.exit(1)
}
const RUNS = 3
const work = mkdtempSync(join(tmpdir(), 'winnow-halie-bench-'))
try {
  // 5 tasks × 600 sessions × 6 blocks = 18,000 event blocks, with their surveys and accuracies.
  const folder = writeHalieFolder(join(work, 'halie'), {
    seed: 27,
    sessionsPerTask: 600,
    blocksPerSession: 6,
    logs: false,
  })
  const sources = halieSourcesIn(folder.dir)
  const blocks = Object.values(folder.counts).reduce((n, c) => n + c.eventBlocks, 0)
  const rows: (string | number)[][] = [['run', 'sqlite3 .import s', 'winnow s', 'ratio']]
  const ratios: number[] = []
  for (let run = 1; run <= RUNS; run++) {
    const flat = join(work, `flat-${run}.db`)
    const project = join(work, `halie-${run}.winnow`)
    const commands = ['.mode csv']
    sources.forEach((s, i) => commands.push(`.import '${s.path}' t${i}`))
    const reference = timeCommand('sqlite3', [flat, ...commands])
    const start = process.hrtime.bigint()
    await importIntoProject(
      project,
      { collection: 'halie', sources, options: {} },
      {},
      { create: true },
    )
    const ours = seconds(start)
    ratios.push(ours / reference)
    rows.push([run, reference.toFixed(3), ours.toFixed(3), (ours / reference).toFixed(2)])
  }

  // Seeking: 5,000 events; 500 moments drawn over the whole log.
  const log = generateLog(random(5), { events: 5000 })
  const events: LogEvent[] = log.lines.map((l, i) => parseLogLine(l, i))
  const built = process.hrtime.bigint()
  const replay = new Replay(events)
  const buildMs = seconds(built) * 1000
  const rnd = random(8)
  const moments = Array.from({ length: 500 }, () => Math.floor(rnd() * replay.duration))
  const seekMs: number[] = []
  const fromStartMs: number[] = []
  for (const ms of moments) {
    let t = process.hrtime.bigint()
    const sought = replay.at(ms)
    seekMs.push(seconds(t) * 1000)
    t = process.hrtime.bigint()
    const n = replay.countAt(ms)
    let state = { text: '', provenance: '' }
    for (let i = 0; i < n; i++) state = applyEvent(state, events[i] as LogEvent)
    fromStartMs.push(seconds(t) * 1000)
    if (state.text !== sought.text) throw new Error('a seek and a replay from the start disagree')
  }
  // 16× playback: a frame every 1/60 s moves the playhead 16 × 16.7 ms of the log.
  // Each frame: the events since the last one applied, the offer read from the timeline worked
  // out once, and the document cut into the lines the view draws (only changed ones redrawn).
  const frameMs: number[] = []
  const playback = new Playback(replay)
  const offers = offerTimeline(events)
  for (let at = 0; at <= replay.duration; at += (16 * 1000) / 60) {
    const t = process.hrtime.bigint()
    const count = replay.countAt(at)
    const doc = playback.documentAfter(count)
    void offers.states[count]
    documentLines(doc.text, doc.provenance)
    frameMs.push(seconds(t) * 1000)
  }
  const f = (n: number): string => n.toFixed(3)
  const report = [
    '## HALIE import and replay',
    '',
    `${blocks.toLocaleString('en')} event blocks of five tasks (${sources.length} CSV files, ${folder.sessions.length.toLocaleString('en')} sessions) imported into a new project (\`importIntoProject\`, the path \`winnow halie import\` and the app take), beside the \`sqlite3\` shell's \`.import\` of the same files into flat tables; load average ${loadavg()[0]?.toFixed(2)}. Target: at most 2× the shell.`,
    '',
    table(rows),
    '',
    `Median ratio ${quantile(ratios, 0.5).toFixed(2)}.`,
    '',
    `Seeking in a ${events.length.toLocaleString('en')}-event log (${(replay.duration / 60000).toFixed(1)} minutes; building its checkpoints once ${f(buildMs)} ms), 500 moments drawn over it. Target: every seek under 50 ms.`,
    '',
    table([
      ['', 'median ms', 'p99 ms', 'max ms'],
      [
        'seek (checkpoint + < 64 events)',
        f(quantile(seekMs, 0.5)),
        f(quantile(seekMs, 0.99)),
        f(largest(seekMs)),
      ],
      [
        'replay from the start (reference)',
        f(quantile(fromStartMs, 0.5)),
        f(quantile(fromStartMs, 0.99)),
        f(largest(fromStartMs)),
      ],
      [
        'one 16× frame: deltas since the last + offer + lines',
        f(quantile(frameMs, 0.5)),
        f(quantile(frameMs, 0.99)),
        f(largest(frameMs)),
      ],
    ]),
  ].join('\n')
  console.log(report)
  if (process.argv.includes('--write')) await writeSection(report)
} finally {
  rmSync(work, { recursive: true, force: true })
}
