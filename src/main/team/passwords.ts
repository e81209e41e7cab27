/**
 * Where the desktop app keeps members' passwords: by server address (the URL without a password,
 * naming the member), encrypted with the system keychain, never in a project file. Serve mode and
 * the command line have none and follow libpq's conventions (PGPASSWORD, ~/.pgpass).
 */
export interface TeamPasswords {
  read(server: string): string | null
  save(server: string, password: string): void
}
