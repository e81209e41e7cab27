// ProtoQA: scoring 500 questions × 10 ranked predictions with every metric (exact match), beside
// the evaluator's own algorithm (numpy + scipy's linear_sum_assignment, bench/lib/
// protoqa_reference.py) on the same files in the same run; and BLANC of two clusterings of
// 100-answer questions, beside a count over every pair of responses.
//   npx tsx bench/protoqa.bench.ts        (or: npm run bench -- protoqa)
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { readPredictions } from '../src/main/collections/protoqa/import/predictions'
import { readProtoqaQuestions } from '../src/main/collections/protoqa/import/questions'
import { readTextFile } from '../src/main/collections/protoqa/import/text'
import { blanc } from '../src/shared/protoqa/blanc'
import { exactMatch, scoreAll } from '../src/shared/protoqa/scoring'
import { loadWordNet, wordnetSimilarity } from '../src/main/collections/protoqa/wordnet'
import { hasCommand, quantile, seededRandom, table } from './lib/measure'
import { largest } from '../src/shared/lists'

const here = dirname(fileURLToPath(import.meta.url))
const QUESTIONS = 500
const PREDICTIONS = 10
const RUNS = 5
/** BLANC's runs over the 200 questions; the median is taken, once the first runs warmed it up. */
const BLANC_RUNS = 25
const r = seededRandom(2020)
const int = (lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1))

/** Questions shaped like the crowdsourced dev set: 4–19 clusters, ~100 responses. */
function writeFiles(dir: string): { targets: string; predictions: string } {
  const lines: string[] = []
  const predictions: Record<string, string[]> = {}
  for (let q = 0; q < QUESTIONS; q++) {
    const id = `b${q}`
    const clusters: Record<string, { count: number; answers: string[] }> = {}
    const raw: Record<string, number> = {}
    const n = int(4, 19)
    for (let k = 0; k < n; k++) {
      const answers = Array.from({ length: int(1, 8) }, (_, m) => `answer ${k} ${m}`)
      for (const a of answers) raw[a] = int(1, 6)
      clusters[`${id}.${k}`] = { count: answers.reduce((s, a) => s + (raw[a] ?? 0), 0), answers }
    }
    lines.push(
      JSON.stringify({
        metadata: { id, source: 'bench' },
        question: { original: `Name thing ${q}.`, normalized: `name thing ${q}.` },
        answers: { raw, clusters },
      }),
    )
    predictions[id] = Array.from({ length: PREDICTIONS }, () =>
      r() < 0.6 ? `Answer ${int(0, n - 1)} ${int(0, 2)}` : `miss ${int(0, 99)}`,
    )
  }
  const targets = join(dir, 'targets.jsonl')
  const preds = join(dir, 'predictions.json')
  writeFileSync(targets, lines.join('\n') + '\n')
  writeFileSync(preds, JSON.stringify(predictions))
  return { targets, predictions: preds }
}

function ours(
  targets: string,
  predictions: string,
): { seconds: number; means: Record<string, number> } {
  const start = process.hrtime.bigint()
  const { records } = readProtoqaQuestions(readTextFile(targets))
  const questions = records.map((q) => ({
    id: q.id,
    question: q.normalized,
    clusters: q.clusters.map((c) => ({ id: c.label, count: c.count, answers: c.answers })),
  }))
  const report = scoreAll(questions, readPredictions(readTextFile(predictions)), exactMatch)
  const seconds = Number(process.hrtime.bigint() - start) / 1e9
  return {
    seconds,
    means: Object.fromEntries(Object.entries(report.metrics).map(([k, v]) => [k, v.mean])),
  }
}

function reference(
  targets: string,
  predictions: string,
): { seconds: number; means: Record<string, number> } | null {
  if (!hasCommand('python3')) return null
  const run = spawnSync('python3', [join(here, 'lib/protoqa_reference.py'), targets, predictions], {
    encoding: 'utf8',
  })
  if (run.status !== 0) {
    console.log(
      `reference not run (python3 with numpy and scipy needed): ${run.stderr.trim().split('\n').pop() ?? ''}`,
    )
    return null
  }
  return JSON.parse(run.stdout) as { seconds: number; means: Record<string, number> }
}

/** BLANC by looking at every pair of responses: the textbook definition, as the reference. */
function pairwiseBlanc(
  key: Map<string, string>,
  response: Map<string, string>,
  weights: Map<string, number>,
): number {
  const items: [string, string][] = []
  for (const [answer, k] of key)
    for (let i = 0; i < (weights.get(answer) ?? 1); i++) items.push([k, response.get(answer) ?? ''])
  let ck = 0,
    cr = 0,
    both = 0,
    nboth = 0
  for (let i = 0; i < items.length; i++)
    for (let j = i + 1; j < items.length; j++) {
      const a = items[i] as [string, string]
      const b = items[j] as [string, string]
      const sk = a[0] === b[0]
      const sr = a[1] === b[1]
      if (sk) ck++
      if (sr) cr++
      if (sk && sr) both++
      if (!sk && !sr) nboth++
    }
  const pairs = (items.length * (items.length - 1)) / 2
  const f = (x: number, y: number, z: number): number =>
    y && z ? (2 * (x / y) * (x / z)) / (x / y + x / z || 1) : 0
  return (f(both, ck, cr) + f(nboth, pairs - ck, pairs - cr)) / 2
}

const dir = mkdtempSync(join(tmpdir(), 'winnow-protoqa-bench-'))
try {
  const files = writeFiles(dir)
  const mine = Array.from({ length: RUNS }, () => ours(files.targets, files.predictions))
  const theirs = Array.from({ length: RUNS }, () =>
    reference(files.targets, files.predictions),
  ).filter((x): x is NonNullable<typeof x> => x !== null)
  const ourMedian = quantile(
    mine.map((m) => m.seconds),
    0.5,
  )
  const rows: (string | number)[][] = [['', 'median s', 'ratio']]
  rows.push([
    `Winnow: ${QUESTIONS} × ${PREDICTIONS}, 9 metrics, exact`,
    ourMedian.toFixed(3),
    '1.00',
  ])
  if (theirs.length > 0) {
    const refMedian = quantile(
      theirs.map((t) => t.seconds),
      0.5,
    )
    rows.push([
      'evaluator algorithm (numpy + scipy)',
      refMedian.toFixed(3),
      (refMedian / ourMedian).toFixed(2),
    ])
    const differ = Object.entries(mine[0]?.means ?? {}).filter(
      ([k, v]) => Math.abs(v - (theirs[0]?.means[k] ?? NaN)) > 1e-12,
    )
    rows.push([
      'means equal to the reference',
      differ.length === 0 ? 'yes' : `no: ${differ.map(([k]) => k).join(', ')}`,
      '',
    ])
  }
  // WordNet: the same files, the index read first and timed apart; the ratio is against the
  // exact-match run above.
  const loadStart = process.hrtime.bigint()
  const wordnet = loadWordNet()
  const loadSeconds = Number(process.hrtime.bigint() - loadStart) / 1e9
  const { records } = readProtoqaQuestions(readTextFile(files.targets))
  const questions = records.map((q) => ({
    id: q.id,
    question: q.normalized,
    clusters: q.clusters.map((c) => ({ id: c.label, count: c.count, answers: c.answers })),
  }))
  const predictions = readPredictions(readTextFile(files.predictions))
  const wordnetStart = process.hrtime.bigint()
  scoreAll(questions, predictions, wordnetSimilarity(wordnet))
  const wordnetSeconds = Number(process.hrtime.bigint() - wordnetStart) / 1e9
  rows.push(['WordNet index read (once)', loadSeconds.toFixed(3), ''])
  rows.push([
    `Winnow: ${QUESTIONS} × ${PREDICTIONS}, 9 metrics, WordNet`,
    wordnetSeconds.toFixed(3),
    (wordnetSeconds / ourMedian).toFixed(2),
  ])
  console.log(table(rows))

  // BLANC: two clusterings of a 100-response question (12 clusters, ~40 distinct answers).
  const cases = Array.from({ length: 200 }, () => {
    const weights = new Map<string, number>()
    const key = new Map<string, string>()
    const response = new Map<string, string>()
    let left = 100
    for (let a = 0; left > 0; a++) {
      const w = Math.min(left, int(1, 5))
      left -= w
      weights.set(`a${a}`, w)
      key.set(`a${a}`, `${int(0, 11)}`)
      response.set(`a${a}`, r() < 0.8 ? (key.get(`a${a}`) ?? '') : `${int(0, 11)}`)
    }
    return { weights, key, response }
  })
  const time = (f: () => void): number => {
    const start = process.hrtime.bigint()
    f()
    return Number(process.hrtime.bigint() - start) / 1e6
  }
  const blancMs =
    quantile(
      Array.from({ length: BLANC_RUNS }, () =>
        time(() => cases.forEach((c) => blanc(c.key, c.response, c.weights))),
      ),
      0.5,
    ) / cases.length
  const pairMs =
    quantile(
      Array.from({ length: BLANC_RUNS }, () =>
        time(() => cases.forEach((c) => pairwiseBlanc(c.key, c.response, c.weights))),
      ),
      0.5,
    ) / cases.length
  const worst = largest(
    cases.map((c) =>
      Math.abs(
        blanc(c.key, c.response, c.weights).blanc - pairwiseBlanc(c.key, c.response, c.weights),
      ),
    ),
  )
  console.log(
    table([
      ['BLANC, 100 responses', 'ms per question', 'ratio'],
      ['Winnow (cluster sizes)', blancMs.toFixed(4), '1.00'],
      ['every pair of responses', pairMs.toFixed(4), (pairMs / blancMs).toFixed(2)],
      ['largest difference', worst.toExponential(1), ''],
    ]),
  )
  console.log(
    `load: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  )
} finally {
  rmSync(dir, { recursive: true, force: true })
}
