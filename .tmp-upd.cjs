const D = require('better-sqlite3')
const db = new D(process.argv[2])
db.pragma('journal_mode = WAL'); db.pragma('synchronous = NORMAL'); db.pragma('cache_size = -65536')
const w = db.prepare('select worker_id, count(*) n from annotations group by worker_id having n between 15000 and 25000 limit 1').get()
console.log(w)
for (const v of [1.5, 2.5, 1.5]) {
  const t = process.hrtime.bigint()
  const r = db.prepare('update annotations set rating = ? where worker_id = ?').run(v, w.worker_id)
  console.log(r.changes, Number(process.hrtime.bigint() - t) / 1e6, 'ms')
}
