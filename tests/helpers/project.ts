import { type Db, openProject } from '../../src/main/db/connection'

/** Opens the project file at `path`, runs `f` on it and closes it again. */
export function withProject<T>(path: string, f: (db: Db) => T): T {
  const db = openProject(path)
  try {
    return f(db)
  } finally {
    db.close()
  }
}
