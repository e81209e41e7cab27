const D = require('better-sqlite3')
const fs = require('fs')
const [,, src, ...idx] = process.argv
fs.copyFileSync(src, '/tmp/rt/upd.winnow')
const db = new D('/tmp/rt/upd.winnow')
db.pragma('journal_mode = WAL'); db.pragma('synchronous = NORMAL'); db.pragma('cache_size = -65536')
for (const i of idx) db.exec(i)
db.pragma('wal_checkpoint(TRUNCATE)')
const times = []
for (const v of [1.5, 2.5, 1.5, 2.5]) {
  const t = process.hrtime.bigint()
  db.prepare('update annotations set rating = ? where worker_id = 1').run(v)
  times.push((Number(process.hrtime.bigint() - t) / 1e6).toFixed(0))
}
console.log(times.join(' '), 'ms  ', idx.join(' ; ').slice(0, 150))
