/**
 * One MTurk request the way every core function makes it: wait for the rate limiter, send with the
 * abort signal, back off and retry on throttling/5xx/dropped connections.
 */
import type { MTurkClient } from '@aws-sdk/client-mturk'
import { type BackoffOptions, type RateLimiter, withBackoff } from './limiter'

export interface MTurkContext {
  client: MTurkClient
  limiter?: RateLimiter
  signal?: AbortSignal
  backoff?: BackoffOptions
}

export interface SendOptions {
  abortSignal?: AbortSignal
}

/**
 * `send(ctx, (client, options) => client.send(new XCommand(input), options))`: a fresh command per
 * attempt, because a command object collects middleware each time it is sent.
 */
export function send<T>(
  ctx: MTurkContext,
  request: (client: MTurkClient, options: SendOptions) => Promise<T>,
): Promise<T> {
  const options: SendOptions = ctx.signal ? { abortSignal: ctx.signal } : {}
  return withBackoff(
    async () => {
      await ctx.limiter?.acquire(ctx.signal)
      return request(ctx.client, options)
    },
    { ...ctx.backoff, ...(ctx.signal ? { signal: ctx.signal } : {}) },
  )
}
