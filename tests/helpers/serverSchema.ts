import { COLLECTION_TABLES } from '../../src/main/collections/teams'
import { REVIEWER_KINDS } from '../../src/main/db/server/schema'
import type { PgServer } from './postgres'

/**
 * Takes a team's server back to schema 3, as a team published before collections travelled:
 * without migration 4's tables and with migration 2's push policy.
 */
export async function serverAtSchema3(server: PgServer, db: string): Promise<void> {
  const tables = COLLECTION_TABLES.map((t) => `winnow.${t.name}`).join(', ')
  const kinds = REVIEWER_KINDS.map((k) => `'${k}'`).join(', ')
  await server.admin$(
    `DROP TABLE ${tables};
     DROP POLICY change_sets_push ON winnow.change_sets;
     CREATE POLICY change_sets_push ON winnow.change_sets FOR INSERT WITH CHECK (
       member = session_user AND EXISTS (
         SELECT 1 FROM winnow.members m WHERE m.name = session_user
           AND (m.role = 'lead' OR (m.role = 'reviewer' AND kind IN (${kinds})))));
     UPDATE winnow.schema_version SET version = 3;`,
    db,
  )
}

export async function serverSchemaVersion(server: PgServer, db: string): Promise<number> {
  const result = await server.admin$('SELECT version FROM winnow.schema_version', db)
  return (result.rows[0] as { version: number }).version
}

/** Takes a team's server back to schema 4, before the natural keys of collection tables. */
export async function serverAtSchema4(server: PgServer, db: string): Promise<void> {
  const drops = COLLECTION_TABLES.flatMap((t) =>
    (t.unique ?? []).map(
      (_, i) => `ALTER TABLE winnow.${t.name} DROP CONSTRAINT ${t.name}_natural_${i};`,
    ),
  )
  await server.admin$(`${drops.join('\n')} UPDATE winnow.schema_version SET version = 4;`, db)
}
