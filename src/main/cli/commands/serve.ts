import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { appDataDir } from '../../appData'
import { ensureDemoProject } from '../../demo'
import { recentProjects } from '../../electron/recents'
import { environmentSecrets, sessionSecrets } from '../../mturk/credentials'
import { startServer } from '../../serve/server'
import { type Command, UsageError, dbOption, optionalString, parseNumber } from '../command'

/** An upload is written whole to the temp folder before it is imported: a cap past 10 GB is a slip. */
const MAX_UPLOAD_MB = 10_000

export const serveCommand: Command = {
  name: 'serve',
  summary: 'Serve the app on 127.0.0.1 for a browser (prints the address with its token)',
  usage:
    'winnow serve (--db P | --demo) [--port N] [--max-upload-mb N] [--profile NAME] [--json]\n' +
    `  MTurk keys: AWS_* env or --profile; uploads larger than --max-upload-mb (1024; 1 to ${MAX_UPLOAD_MB}) are refused`,
  options: {
    ...dbOption,
    port: { type: 'string' },
    'max-upload-mb': { type: 'string' },
    demo: { type: 'boolean' },
    profile: { type: 'string' },
  },
  async run(values, _positionals, io) {
    const dbOption = optionalString(values, 'db')
    const demo = values.demo === true
    if (!dbOption && !demo) throw new UsageError('--db P or --demo is required')
    const profile = optionalString(values, 'profile')
    const portText = optionalString(values, 'port')
    const port =
      portText === undefined
        ? 0
        : parseNumber(portText, 'port', { integer: true, min: 0, max: 65535 })
    const uploadText = optionalString(values, 'max-upload-mb')
    const maxUploadMb =
      uploadText === undefined
        ? undefined
        : parseNumber(uploadText, 'max-upload-mb', { min: 1, max: MAX_UPLOAD_MB })
    const rendererDir = fileURLToPath(new URL('../renderer', import.meta.url))
    if (!existsSync(join(rendererDir, 'index.html'))) {
      throw new Error(`The page is not built (${rendererDir} is missing); run npm run build.`)
    }
    const demoPath = demo ? resolve(dbOption ?? join(tmpdir(), 'winnow-demo.winnow')) : undefined
    const server = await startServer({
      rendererDir,
      port,
      ...(maxUploadMb === undefined ? {} : { maxUploadBytes: Math.round(maxUploadMb * 1e6) }),
      session: {
        ...(demoPath ? { demoPath } : {}),
        // File ▸ Recent: the desktop app's list, so either way of running Winnow knows both.
        recents: recentProjects(join(appDataDir(), 'recent.json')),
        // MTurk keys: the environment or --profile; a pair typed on the page lives in memory only.
        secrets: sessionSecrets(environmentSecrets(profile ? { profile } : {})),
      },
    })
    try {
      if (demoPath) {
        ensureDemoProject(demoPath)
        server.session.open(demoPath, { isDemo: true })
      } else if (dbOption) {
        const path = resolve(dbOption)
        server.session.open(path, { create: !existsSync(path) })
      }
    } catch (error) {
      // A project that cannot be opened ends the command; a server left listening would keep the
      // process alive, serving nothing.
      await server.close()
      throw error
    }
    const info = { url: server.openUrl, token: server.token }
    io.stdout(
      values.json
        ? `${JSON.stringify(info)}\n`
        : `Winnow is serving ${server.session.info()?.path ?? ''}\nOpen ${server.openUrl}\nPress Ctrl+C to stop.\n`,
    )
    await new Promise<void>((done) => {
      const stop = (): void => {
        void server.close().then(done)
      }
      process.once('SIGINT', stop)
      process.once('SIGTERM', stop)
    })
    return { json: { stopped: true }, text: 'Stopped.' }
  },
}
