import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    exclude: ['tests/e2e/**', 'node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Real SQLite files and real servers: processes keep native handles apart.
    pool: 'forks',
    // The tests run the MTurk SDK on this machine's Node 20, as the command line does; like the
    // command line (src/main/cli/main.ts), they skip the SDK's notice about future Node versions.
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  },
})
