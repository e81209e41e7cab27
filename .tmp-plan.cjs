const D = require('better-sqlite3')
const db = new D(process.argv[2])
const qs = require('fs').readFileSync(0, 'utf8').split(';;').map(s => s.trim()).filter(Boolean)
for (const q of qs) { console.log('--', q.replace(/\s+/g,' ').slice(0,200)); for (const r of db.prepare('explain query plan ' + q).all()) console.log('   ', r.detail) }
