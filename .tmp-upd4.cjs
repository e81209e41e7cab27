const D = require('better-sqlite3')
const fs = require('fs')
const [,, src, ...idx] = process.argv
fs.copyFileSync(src, '/tmp/rt/upd.winnow')
const db = new D('/tmp/rt/upd.winnow')
db.pragma('journal_mode = WAL'); db.pragma('synchronous = NORMAL'); db.pragma('cache_size = -65536'); db.pragma('wal_autocheckpoint=0')
for (const i of idx) db.exec(i)
const ws = db.prepare('select worker_id from annotations group by worker_id having count(*) between 15000 and 25000').pluck().all()
const pages = [], times = []
for (let k = 0; k < 6; k++) {
  db.pragma('wal_checkpoint(TRUNCATE)')
  const t = process.hrtime.bigint()
  db.prepare('update annotations set rating = ? where worker_id = ?').run(k % 2 ? 1.5 : 2.5, ws[k % ws.length])
  times.push(Number(process.hrtime.bigint() - t) / 1e6)
  pages.push(fs.statSync('/tmp/rt/upd.winnow-wal').size / 4120)
}
times.sort((a,b)=>a-b)
console.log('pages', pages.map(p => p.toFixed(0)).join(' '), 'median ms', times[3].toFixed(0), idx.map(s=>s.replace(/create index (\w+) on annotations/,'$1')).join(' ; '))
