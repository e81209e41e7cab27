// pgpass (node-postgres's reader of ~/.pgpass) ships no types.
declare module 'pgpass' {
  function pgpass(
    connection: { host: string; port: number; database: string | undefined; user: string },
    found: (password: string | undefined) => void,
  ): void
  export default pgpass
}
