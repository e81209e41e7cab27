const D = require('better-sqlite3')
const fs = require('fs')
const [,, src, ...idx] = process.argv
fs.copyFileSync(src, '/tmp/rt/upd.winnow')
const db = new D('/tmp/rt/upd.winnow')
db.pragma('journal_mode = WAL'); db.pragma('synchronous = NORMAL'); db.pragma('cache_size = -65536'); db.pragma('mmap_size=268435456')
for (const i of idx) db.exec(i)
db.pragma('wal_checkpoint(TRUNCATE)')
const times = []
const ws = db.prepare('select worker_id from annotations group by worker_id having count(*) between 15000 and 25000').pluck().all()
for (let k = 0; k < 12; k++) {
  const w = ws[k % ws.length]
  const t = process.hrtime.bigint()
  db.prepare('update annotations set rating = ? where worker_id = ?').run(k % 2 ? 1.5 : 2.5, w)
  times.push(Number(process.hrtime.bigint() - t) / 1e6)
}
times.sort((a,b)=>a-b)
console.log(ws.length, 'median', times[6].toFixed(0), 'max', times[11].toFixed(0), 'ms  ', idx.map(s=>s.replace(/create index (\w+) on annotations/,'$1')).join(' ; '))
