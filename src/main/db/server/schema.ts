import type pg from 'pg'
import { UserError } from '../../../shared/contract/errors'
import { append } from '../../../shared/lists'
import { COLLECTION_TABLES } from '../../collections/teams'
import type { SharedTable } from '../../collections/team'
import { type ServerClient, escapeIdentifier } from './connect'
import { copyRowsIn } from './bulk'
import type { BulkTable, BulkValue } from './bulkTable'

/**
 * The team's shared record on PostgreSQL, in schema `winnow`: the ordered log of change sets, the
 * bulk data every replica fetches once, and the members with their roles. It has migrations of its
 * own, numbered apart from the project file's; `winnow.schema_version` holds the one it is at.
 */
export interface ServerMigration {
  version: number
  name: string
  /** Runs inside the migrating transaction; `groups` are the role names of this database. */
  up(client: pg.ClientBase, groups: GroupRoles): Promise<void>
  /**
   * When an existing team's server is upgraded (not at publishing, which sends every table):
   * fills what the migration made from the upgrading lead's replica, `rowsOf` giving a table's
   * rows of change sets placed in the log.
   */
  fill?(client: ServerClient, rowsOf: PublishedRows): Promise<void>
}

/** A shared table's rows as a replica holds them for the change sets the log has placed. */
export type PublishedRows = (table: BulkTable) => Iterable<readonly BulkValue[]>

/** The PostgreSQL roles a member's login role is granted, one per team role. */
export interface GroupRoles {
  lead: string
  reviewer: string
  viewer: string
}

export type TeamRole = keyof GroupRoles

export const TEAM_ROLES: readonly TeamRole[] = ['lead', 'reviewer', 'viewer']

/** Change-set kinds a reviewer may push (ratings, triage, audits); a lead any, a viewer none. */
export const REVIEWER_KINDS = ['manual', 'bulk', 'revert', 'triage', 'audit'] as const

/** The group roles as identifiers a statement can name. */
function quoted(groups: GroupRoles): GroupRoles {
  return {
    lead: escapeIdentifier(groups.lead),
    reviewer: escapeIdentifier(groups.reviewer),
    viewer: escapeIdentifier(groups.viewer),
  }
}

/**
 * Roles are global to the PostgreSQL cluster, so the group roles carry the database's name: two
 * teams on one server never share a group.
 */
export function groupRoles(database: string): GroupRoles {
  const base = `winnow_${database}`.slice(0, 50)
  return { lead: `${base}_lead`, reviewer: `${base}_reviewer`, viewer: `${base}_viewer` }
}

const m001: ServerMigration = {
  version: 1,
  name: 'log',
  async up(client, groups) {
    const { lead, reviewer, viewer } = quoted(groups)
    // As this migration first wrote it; migration 2 widens it.
    const reviewerKinds = `'manual', 'bulk', 'revert'`
    await client.query(`
      CREATE TABLE winnow.members (
        name text PRIMARY KEY,
        role text NOT NULL CHECK (role IN ('lead', 'reviewer', 'viewer')),
        added_at timestamptz NOT NULL DEFAULT now()
      );

      -- One row: the last place given in the log and its time. Pushes update it, so they queue on
      -- its row lock and commit in the order of their places: a pull after place N misses nothing.
      CREATE TABLE winnow.log_head (
        only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
        seq bigint NOT NULL,
        recorded_at bigint NOT NULL
      );
      INSERT INTO winnow.log_head VALUES (true, 0, 0);

      CREATE TABLE winnow.change_sets (
        seq bigint NOT NULL UNIQUE,
        -- Made by the member's app when the change set was first pushed: the same on every replica.
        uid uuid PRIMARY KEY,
        member text NOT NULL,
        kind text NOT NULL,
        author text NOT NULL,
        -- Epoch ms on the member's clock, and the time the log gives it (increasing with seq).
        created_at bigint NOT NULL,
        recorded_at bigint NOT NULL,
        description text NOT NULL,
        -- An envelope (see team/codecs.ts), so no replica meets an entry it cannot read as one.
        payload jsonb NOT NULL CHECK (jsonb_typeof(payload) = 'object' AND payload ? 'format'
          AND payload ? 'body')
      );

      -- The server, not the app, gives a change set its place, its time and its member.
      CREATE FUNCTION winnow.place_change_set() RETURNS trigger
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = winnow, pg_temp AS $$
      BEGIN
        UPDATE winnow.log_head
          SET seq = seq + 1,
              recorded_at = greatest(
                least(NEW.created_at, (extract(epoch FROM clock_timestamp()) * 1000)::bigint + 60000),
                recorded_at + 1)
          RETURNING seq, recorded_at INTO NEW.seq, NEW.recorded_at;
        NEW.member := session_user;
        RETURN NEW;
      END $$;
      CREATE TRIGGER change_sets_place BEFORE INSERT ON winnow.change_sets
        FOR EACH ROW EXECUTE FUNCTION winnow.place_change_set();

      CREATE FUNCTION winnow.announce_change_sets() RETURNS trigger
        LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('winnow_log', (SELECT seq::text FROM winnow.log_head));
        RETURN NULL;
      END $$;
      CREATE TRIGGER change_sets_announce AFTER INSERT ON winnow.change_sets
        FOR EACH STATEMENT EXECUTE FUNCTION winnow.announce_change_sets();

      -- Who may push what is checked here, so a modified app cannot do more than its role.
      ALTER TABLE winnow.change_sets ENABLE ROW LEVEL SECURITY;
      CREATE POLICY change_sets_read ON winnow.change_sets FOR SELECT USING (true);
      CREATE POLICY change_sets_push ON winnow.change_sets FOR INSERT WITH CHECK (
        member = session_user AND EXISTS (
          SELECT 1 FROM winnow.members m WHERE m.name = session_user
            AND (m.role = 'lead' OR (m.role = 'reviewer' AND kind IN (${reviewerKinds})))));

      CREATE TABLE winnow.settings (key text PRIMARY KEY, value text NOT NULL);
      CREATE TABLE winnow.workers (id bigint PRIMARY KEY, external_id text NOT NULL UNIQUE);
      CREATE TABLE winnow.stories (id bigint PRIMARY KEY, external_id text NOT NULL UNIQUE, text text NOT NULL);
      CREATE TABLE winnow.sentences (
        story_id bigint NOT NULL, idx integer NOT NULL, text text NOT NULL,
        PRIMARY KEY (story_id, idx));
      CREATE TABLE winnow.source_files (
        id bigint PRIMARY KEY, name text NOT NULL, path text NOT NULL, sha256 text NOT NULL,
        bytes bigint NOT NULL, format text NOT NULL, year integer, imported_at bigint NOT NULL,
        change_set_uid uuid NOT NULL, records bigint NOT NULL, submissions_added bigint NOT NULL,
        annotations_added bigint NOT NULL, warnings text NOT NULL);
      CREATE TABLE winnow.submissions (
        id bigint PRIMARY KEY, source_key text NOT NULL UNIQUE, assignment_id text,
        worker_id bigint, worker_ref text, story_id bigint, sentence_index integer NOT NULL,
        submitted_at bigint, accepted_at bigint, file_rating double precision,
        declared_filled integer, source_file_id bigint, source_line bigint,
        change_set_uid uuid NOT NULL, flags integer NOT NULL, raw text);
      CREATE TABLE winnow.annotations (
        id bigint PRIMARY KEY, submission_id bigint NOT NULL, dimension integer NOT NULL,
        worker_id bigint, story_id bigint NOT NULL, sentence_index integer NOT NULL,
        submitted_at bigint, file_rating double precision, flags integer NOT NULL);
      CREATE TABLE winnow.annotation_texts (
        annotation_id bigint PRIMARY KEY, specific_nl text NOT NULL, specific_structured text,
        general_nl text NOT NULL, general_structured text);

      GRANT USAGE ON SCHEMA winnow TO ${lead}, ${reviewer}, ${viewer};
      GRANT SELECT ON ALL TABLES IN SCHEMA winnow TO ${lead}, ${reviewer}, ${viewer};
      GRANT INSERT ON winnow.change_sets TO ${lead}, ${reviewer};
    `)
  },
}

/**
 * Reviewers push triage and audit change sets too; and a triage queue's items are claimed here,
 * so reviewers working one queue side by side never review an item twice (`team/claims.ts`).
 */
const m002: ServerMigration = {
  version: 2,
  name: 'reviewer-kinds-and-claims',
  async up(client, groups) {
    const { lead, reviewer, viewer } = quoted(groups)
    const reviewerKinds = quotedKinds(REVIEWER_KINDS)
    await client.query(`
      DROP POLICY change_sets_push ON winnow.change_sets;
      CREATE POLICY change_sets_push ON winnow.change_sets FOR INSERT WITH CHECK (
        member = session_user AND EXISTS (
          SELECT 1 FROM winnow.members m WHERE m.name = session_user
            AND (m.role = 'lead' OR (m.role = 'reviewer' AND kind IN (${reviewerKinds})))));

      -- One row per queue being claimed from: a claim locks it, so claims of one queue queue up.
      CREATE TABLE winnow.triage_claim_queues (queue_uid uuid PRIMARY KEY);
      -- Who reviews each item of a queue (a queue is named by the change set that made it).
      CREATE TABLE winnow.triage_claims (
        queue_uid uuid NOT NULL,
        position integer NOT NULL,
        member text NOT NULL DEFAULT session_user,
        claimed_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (queue_uid, position)
      );
      ALTER TABLE winnow.triage_claims ENABLE ROW LEVEL SECURITY;
      CREATE POLICY triage_claims_read ON winnow.triage_claims FOR SELECT USING (true);
      CREATE POLICY triage_claims_own ON winnow.triage_claims FOR INSERT
        WITH CHECK (member = session_user);
      GRANT SELECT ON winnow.triage_claims, winnow.triage_claim_queues TO ${lead}, ${reviewer}, ${viewer};
      GRANT INSERT ON winnow.triage_claims, winnow.triage_claim_queues TO ${lead}, ${reviewer};
      GRANT UPDATE ON winnow.triage_claim_queues TO ${lead}, ${reviewer};
    `)
  },
}

/**
 * Imports and MTurk pulls made after publishing: a lead's push sends their rows into the bulk
 * tables by COPY, and each replica takes a number, the band its new rows' ids come from.
 */
const m003: ServerMigration = {
  version: 3,
  name: 'imports-after-publishing',
  async up(client, groups) {
    const { lead, reviewer, viewer } = quoted(groups)
    await client.query(`
      CREATE SEQUENCE winnow.replica_numbers MINVALUE 1 START 1;
      CREATE INDEX submissions_change_set ON winnow.submissions (change_set_uid);
      CREATE INDEX source_files_change_set ON winnow.source_files (change_set_uid);
      GRANT USAGE ON SEQUENCE winnow.replica_numbers TO ${lead}, ${reviewer}, ${viewer};
      GRANT INSERT ON winnow.workers, winnow.stories, winnow.sentences, winnow.source_files,
        winnow.submissions, winnow.annotations, winnow.annotation_texts TO ${lead};
    `)
  },
}

/** A column type of a shared table as the server holds it. */
const SERVER_TYPES = { int: 'bigint', real: 'double precision', text: 'text', uid: 'uuid' } as const

/**
 * ProtoQA, CROWDAQ and HALIE data travel as GLUCOSE's does: each collection's shared tables
 * (`collections/<kind>/team.ts`) are made here from their declaration, and reviewers push
 * ProtoQA clusterings. A later change to a declared table comes with a migration of its own.
 */
const m004: ServerMigration = {
  version: 4,
  name: 'collection-tables',
  async up(client, groups) {
    const { lead, reviewer, viewer } = quoted(groups)
    for (const table of COLLECTION_TABLES) {
      const columns = table.columns.map((c) => `${c.name} ${SERVER_TYPES[c.type]}`)
      const uid = table.columns.find((c) => c.type === 'uid')
      await client.query(`
        CREATE TABLE winnow.${table.name} (${columns.join(', ')}, PRIMARY KEY (${table.key.join(', ')}));
        ${uid ? `CREATE INDEX ${table.name}_change_set ON winnow.${table.name} (${uid.name});` : ''}
        ${table.owner ? `CREATE INDEX ${table.name}_owner ON winnow.${table.name} (${table.owner.column});` : ''}
        GRANT SELECT ON winnow.${table.name} TO ${lead}, ${reviewer}, ${viewer};
        GRANT INSERT ON winnow.${table.name} TO ${lead};`)
    }
    await replacePushPolicy(client, `kind IN (${quotedKinds([...REVIEWER_KINDS, 'protoqa'])})`)
  },
  // A team published before collections travelled holds them only in its replicas.
  async fill(client, rowsOf) {
    for (const table of COLLECTION_TABLES) await copyRowsIn(client, table, rowsOf(table))
  },
}

/**
 * Two leads importing one ProtoQA question or CROWDAQ attempt at once would each place it under
 * an id of their own band, and a replica could hold only one: the server holds each shared
 * table's natural keys (`unique` of its declaration) unique too, so the second push is refused.
 * A server that holds such doubles already is left as it is, with the rows named.
 */
const m005: ServerMigration = {
  version: 5,
  name: 'natural-keys',
  async up(client) {
    const doubles: string[] = []
    for (const table of COLLECTION_TABLES) {
      for (const columns of table.unique ?? [])
        append(doubles, await doubled(client, table, columns))
    }
    if (doubles.length > 0) {
      throw new UserError({
        type: 'conflict',
        code: 'server-doubles',
        message: `The team's server holds one thing twice, which this Winnow refuses from now on: ${doubles.join('; ')}. Remove one of each (and the change set that brought it) on the server, then upgrade again; nothing changed.`,
      })
    }
    for (const table of COLLECTION_TABLES) {
      for (const [i, columns] of (table.unique ?? []).entries()) {
        await client.query(
          `ALTER TABLE winnow.${table.name} ADD CONSTRAINT ${table.name}_natural_${i} UNIQUE (${columns.join(', ')})`,
        )
      }
    }
  },
}

/** Rows of a table sharing one natural key, said with their key and the change sets that brought them. */
async function doubled(
  client: pg.ClientBase,
  table: SharedTable,
  columns: readonly string[],
): Promise<string[]> {
  const named = columns.map((c) => `${c}::text`).join(`, ' / ', `)
  const key = table.key.map((c) => `${c}::text`).join(`, ' / ', `)
  const uid = table.columns.find((c) => c.type === 'uid')
  const result = await client.query<{ key: string; rows: string }>(
    `SELECT concat(${named}) AS key,
       string_agg(concat(${key}${uid ? `, ' (change set ', ${uid.name}::text, ')'` : ''}), ', ') AS rows
     FROM winnow.${table.name} GROUP BY ${columns.join(', ')} HAVING count(*) > 1
     ORDER BY 1 LIMIT 20`,
  )
  return result.rows.map((r) => `${table.name} ${columns.join(' / ')} ${r.key} in rows ${r.rows}`)
}

/**
 * The schema's tables, sequences and functions belong to the leads' group role, not to the lead
 * who published: every lead may upgrade the server (an upgrade runs as that group), and reviewers
 * and viewers, not in it, may not. The schema itself stays its publisher's; the group may create
 * in it. On an older server only the objects' owner, the publisher, can hand them over, so this
 * migration is that lead's, once.
 */
const m006: ServerMigration = {
  version: 6,
  name: 'leads-own-the-schema',
  async up(client, groups) {
    await handToLeads(client, groups)
    // An owner skips row-level security unless forced; every lead is one now.
    await client.query(`ALTER TABLE winnow.change_sets FORCE ROW LEVEL SECURITY;
      ALTER TABLE winnow.triage_claims FORCE ROW LEVEL SECURITY;`)
  },
}

/**
 * Worker actions travel (bonuses, messages, qualifications, blocks, approvals): a reviewer may push
 * an `mturk` change set that records worker actions and brings no bulk rows (a pull's change set,
 * whose rows are bulk data, stays a lead's).
 */
const m007: ServerMigration = {
  version: 7,
  name: 'reviewer-worker-actions',
  async up(client) {
    await replacePushPolicy(
      client,
      `kind IN (${quotedKinds([...REVIEWER_KINDS, 'protoqa'])})
        OR (kind = 'mturk' AND payload -> 'body' ? 'actions' AND NOT payload ? 'bulk')`,
    )
  },
}

/** Change-set kinds as a list of SQL strings (the kinds are the app's own names). */
function quotedKinds(kinds: readonly string[]): string {
  return kinds.map((k) => `'${k}'`).join(', ')
}

/**
 * Who may push a change set: a member as itself, a lead anything, a reviewer what `reviewerMay`
 * allows (a condition on the row being inserted).
 */
async function replacePushPolicy(client: pg.ClientBase, reviewerMay: string): Promise<void> {
  await client.query(`
    DROP POLICY change_sets_push ON winnow.change_sets;
    CREATE POLICY change_sets_push ON winnow.change_sets FOR INSERT WITH CHECK (
      member = session_user AND EXISTS (
        SELECT 1 FROM winnow.members m WHERE m.name = session_user
          AND (m.role = 'lead' OR (m.role = 'reviewer' AND (${reviewerMay})))));`)
}

export const serverMigrations: readonly ServerMigration[] = [
  m001,
  m002,
  m003,
  m004,
  m005,
  m006,
  m007,
]

export const SERVER_SCHEMA_VERSION = serverMigrations.at(-1)?.version ?? 0

/**
 * Makes the leads' group the owner of every table, sequence and function of schema `winnow` and
 * lets it create there; what it owns already is left alone.
 */
async function handToLeads(client: pg.ClientBase, groups: GroupRoles): Promise<void> {
  const lead = escapeIdentifier(groups.lead)
  const schemaOwner = await client.query<{ mine: boolean }>(
    `SELECT nspowner = (SELECT oid FROM pg_roles WHERE rolname = current_user) AS mine
     FROM pg_namespace WHERE nspname = 'winnow'`,
  )
  if (schemaOwner.rows[0]?.mine)
    await client.query(`GRANT USAGE, CREATE ON SCHEMA winnow TO ${lead} WITH GRANT OPTION`)
  const others = await client.query<{ kind: string; name: string }>(
    `WITH leads AS (SELECT oid FROM pg_roles WHERE rolname = $1)
     SELECT CASE c.relkind WHEN 'S' THEN 'SEQUENCE' ELSE 'TABLE' END AS kind,
       'winnow.' || quote_ident(c.relname) AS name
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'winnow' AND c.relkind IN ('r', 'p', 'S')
       AND c.relowner <> (SELECT oid FROM leads)
     UNION ALL
     SELECT 'FUNCTION', p.oid::regprocedure::text
     FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
     WHERE n.nspname = 'winnow' AND p.proowner <> (SELECT oid FROM leads)`,
    [groups.lead],
  )
  for (const { kind, name } of others.rows)
    await client.query(`ALTER ${kind} ${name} OWNER TO ${lead}`)
}

/** Whether the leads' group owns the schema's objects (a server at migration 6 or later). */
async function leadsOwnSchema(client: pg.ClientBase, groups: GroupRoles): Promise<boolean> {
  const result = await client.query<{ owner: string }>(
    `SELECT tableowner AS owner FROM pg_tables
     WHERE schemaname = 'winnow' AND tablename = 'schema_version'`,
  )
  return result.rows[0]?.owner === groups.lead
}

/** Runs what follows in the transaction as the leads' group, which a lead's login role is in. */
async function actAsLeads(client: pg.ClientBase, groups: GroupRoles): Promise<void> {
  await client.query(`SET LOCAL ROLE ${escapeIdentifier(groups.lead)}`)
}

/** Whether the database already holds a Winnow team (its schema exists). */
export async function holdsTeam(client: pg.ClientBase): Promise<boolean> {
  const result = await client.query<{ found: boolean }>(
    `SELECT to_regclass('winnow.schema_version') IS NOT NULL AS found`,
  )
  return result.rows[0]?.found === true
}

/** Creates the schema of a new team, inside the caller's transaction. */
export async function createServerSchema(client: pg.ClientBase, groups: GroupRoles): Promise<void> {
  for (const name of TEAM_ROLES.map((role) => groups[role])) {
    const exists = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [name])
    if (exists.rowCount === 0) await client.query(`CREATE ROLE ${escapeIdentifier(name)} NOLOGIN`)
  }
  // The publisher joins the leads' group here (it is added as a lead member after) and makes
  // every table as the group, so that every lead owns them.
  const lead = escapeIdentifier(groups.lead)
  await client.query(`GRANT ${lead} TO CURRENT_USER;
    CREATE SCHEMA winnow;
    GRANT USAGE, CREATE ON SCHEMA winnow TO ${lead} WITH GRANT OPTION;`)
  await actAsLeads(client, groups)
  await client.query(`CREATE TABLE winnow.schema_version (version integer NOT NULL);
    INSERT INTO winnow.schema_version VALUES (0);`)
  for (const migration of serverMigrations) await migration.up(client, groups)
  await client.query('UPDATE winnow.schema_version SET version = $1', [SERVER_SCHEMA_VERSION])
  await client.query('RESET ROLE')
}

/** A number of this Winnow's own for the advisory lock an upgrade holds ("winnow" in ASCII). */
const UPGRADE_LOCK = 0x77696e6e6f77

/**
 * Upgrades an existing team's schema (`winnow team upgrade`), inside the caller's transaction:
 * under an advisory lock, so two leads upgrading at once take turns and the second finds nothing
 * to do, the migrations after the server's version run and fill what they made, and the new
 * version is recorded. The server decides who may: a member of the leads' group, which owns the
 * schema's objects (before migration 6, their owner, the lead who published). Returns the
 * versions before and after.
 */
export async function upgradeServerSchema(
  client: ServerClient,
  groups: GroupRoles,
  rowsOf: PublishedRows,
  server: string,
): Promise<{ from: number; to: number }> {
  await client.query('SELECT pg_advisory_xact_lock($1)', [UPGRADE_LOCK])
  const from = await serverSchemaVersion(client, server)
  if (from > SERVER_SCHEMA_VERSION) await checkServerSchema(client, server)
  // Once the leads' group owns the schema (migration 6), any lead migrates it as that group; a
  // reviewer's or viewer's login role is not in it, so the server refuses theirs.
  const pending = serverMigrations.filter((m) => m.version > from)
  if (pending.length === 0) return { from, to: from }
  let asLeads = false
  for (const migration of pending) {
    if (!asLeads && (await leadsOwnSchema(client, groups))) {
      await actAsLeads(client, groups)
      asLeads = true
    }
    await migration.up(client, groups)
    await migration.fill?.(client, rowsOf)
  }
  await client.query('UPDATE winnow.schema_version SET version = $1', [SERVER_SCHEMA_VERSION])
  return { from, to: SERVER_SCHEMA_VERSION }
}

async function serverSchemaVersion(client: pg.ClientBase, server: string): Promise<number> {
  if (!(await holdsTeam(client))) {
    throw new UserError({
      type: 'not-found',
      code: 'not-a-team',
      message: `${server} holds no Winnow team (no schema winnow). A lead publishes one with winnow team init.`,
    })
  }
  const result = await client.query<{ version: number }>(
    'SELECT version FROM winnow.schema_version',
  )
  return result.rows[0]?.version ?? 0
}

/**
 * The server's schema must be one this Winnow knows: an older app meeting a newer server says so
 * before it pushes or pulls anything. Call it inside the transaction that pushes.
 */
export async function checkServerSchema(
  client: pg.ClientBase,
  server: string,
  role: TeamRole | null = null,
): Promise<void> {
  const version = await serverSchemaVersion(client, server)
  if (version > SERVER_SCHEMA_VERSION) {
    throw new UserError({
      type: 'conflict',
      code: 'server-too-new',
      message: `The team's server ${server} was set up by a newer Winnow (server schema ${version}; this version knows ${SERVER_SCHEMA_VERSION}). Update Winnow: nothing was pushed or pulled.`,
    })
  }
  if (version < SERVER_SCHEMA_VERSION) {
    const who =
      role === 'lead'
        ? 'Upgrade it with winnow team upgrade (or Upgrade in the status bar)'
        : role === null
          ? 'A lead upgrades it with winnow team upgrade'
          : 'Ask a lead of the team to upgrade it (winnow team upgrade)'
    throw new UserError({
      type: 'conflict',
      code: 'server-too-old',
      message: `The team's server ${server} has server schema ${version}; this Winnow needs ${SERVER_SCHEMA_VERSION}. ${who}; nothing was pushed or pulled.`,
    })
  }
}
