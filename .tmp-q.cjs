const D = require('better-sqlite3')
const db = new D(process.argv[2])
db.pragma('cache_size = -65536'); db.pragma('mmap_size = 268435456'); db.pragma('temp_store=MEMORY')
const qs = require('fs').readFileSync(0, 'utf8').split(';;').map(s => s.trim()).filter(Boolean)
for (const q of qs) {
  const st = db.prepare(q)
  const times = []
  let res
  for (let i = 0; i < 5; i++) { const t = process.hrtime.bigint(); res = st.raw ? st.all() : st.run(); times.push(Number(process.hrtime.bigint() - t) / 1e6) }
  times.sort((a,b)=>a-b)
  console.log(times[2].toFixed(1).padStart(7), 'ms', JSON.stringify(res).slice(0, 80), ' <- ', q.replace(/\s+/g,' ').slice(0, 150))
}
