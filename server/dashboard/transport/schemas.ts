// Validation of everything a client sends. Types (hints only, says socket.io) live in shared/protocol; these
// zod schemas are what the server trusts, and the compile-time checks at the bottom keep the two in step.
import { z } from 'zod';
import type { Command } from '../../../shared/protocol/commands';
import { CACHE_KEYS_MAX, type HelloRequest, type InspectRequest } from '../../../shared/protocol/socket';
import type { Subscription } from '../../../shared/protocol/subscription';
import { DEFAULT_BUDGETS } from './budgets';

const name = z.string().min(1).max(253);
const key = z.string().min(1).max(512);
const { subscriptionNames, searchLength } = DEFAULT_BUDGETS;
const names = z
  .array(z.string().min(1).max(512))
  .max(subscriptionNames, `a subscription list holds at most ${subscriptionNames} names (cap subscriptionNames)`);
const takeOver = z.boolean().optional();
const pin = z.boolean().optional();

export const subscriptionSchema = z.strictObject({
  controllers: names.optional(),
  kinds: names.optional(),
  namespaces: names.optional(),
  keys: names.optional(),
});

export const helloSchema = z.strictObject({
  protocolVersion: z.number().int(),
  resume: z.strictObject({ serverEpoch: z.string().max(100), lastSeq: z.number().int().min(0) }).optional(),
  subscription: subscriptionSchema.optional(),
  viewer: z.strictObject({ name: z.string().min(1).max(64) }).optional(),
});

const coordinates = z.strictObject({ gvk: z.string().min(1).max(320), namespace: name.optional(), name });
const limit = z.number().int().min(1).max(10_000).optional();
const cacheLimit = z.number().int().min(1).max(CACHE_KEYS_MAX).optional();

export const inspectSchema = z.discriminatedUnion('target', [
  z.strictObject({ target: z.literal('object'), object: coordinates }),
  z.strictObject({ target: z.literal('key'), controller: name, key, limit }),
  z.strictObject({ target: z.literal('informer'), informer: z.string().min(1).max(320), limit }),
  z.strictObject({
    target: z.literal('cache'),
    informer: z.string().min(1).max(320),
    search: z
      .string()
      .max(searchLength, `a cache search is at most ${searchLength} characters (cap searchLength)`)
      .optional(),
    limit: cacheLimit,
  }),
  z.strictObject({
    target: z.literal('events'),
    subscription: subscriptionSchema.optional(),
    afterSeq: z.number().int().min(0).optional(),
    limit,
  }),
]);

const verbs = z.array(z.enum(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'])).max(7);
const target = { resource: name.optional(), namespace: name.optional(), verbs: verbs.optional() };
const rate = z.number().min(0).max(1);
const DAY = 86_400_000;

const faultSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('expireWatches'), ...target }),
  z.strictObject({ kind: z.literal('closeWatches'), ...target }),
  z.strictObject({ kind: z.literal('stallWatches'), ...target }),
  z.strictObject({ kind: z.literal('latency'), ms: z.number().int().min(0).max(600_000), ...target }),
  z.strictObject({ kind: z.literal('errors'), rate, code: z.number().int().min(400).max(599), ...target }),
  z.strictObject({ kind: z.literal('conflicts'), rate, ...target }),
]);

export const commandSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('recording.pause') }),
  z.strictObject({ type: z.literal('recording.resume') }),
  z.strictObject({ type: z.literal('step.hold'), controller: name, takeOver, pin }),
  z.strictObject({ type: z.literal('step.next'), controller: name, takeOver, pin }),
  z.strictObject({ type: z.literal('step.resume'), controller: name, takeOver, pin }),
  z
    .strictObject({
      type: z.literal('step.breakpoint'),
      controller: name,
      key: key.optional(),
      onError: z.boolean().optional(),
      outcome: z.enum(['success', 'requeue', 'requeueAfter', 'error', 'terminalError', 'panic', 'anyError']).optional(),
      minAttempt: z.number().int().min(1).max(1_000_000).optional(),
      id: z.string().min(1).max(100).optional(),
      remove: z.boolean().optional(),
      enabled: z.boolean().optional(),
      pin,
    })
    .refine(
      (b) =>
        b.id !== undefined ||
        b.key !== undefined ||
        b.onError !== undefined ||
        b.outcome !== undefined ||
        b.minAttempt !== undefined,
      {
        message:
          'a breakpoint needs an id (to remove or toggle it) or a condition: key, outcome, onError or minAttempt',
      },
    ),
  z.strictObject({ type: z.literal('step.runTo'), controller: name, key, takeOver, pin }),
  z.strictObject({ type: z.literal('requeue'), controller: name, key }),
  z.strictObject({
    type: z.literal('fault.inject'),
    fault: faultSchema,
    durationMs: z.number().int().min(1).max(DAY).optional(),
  }),
  z.strictObject({ type: z.literal('fault.clear'), id: z.string().min(1).max(100).optional() }),
  z.strictObject({
    type: z.literal('workload.set'),
    profile: name,
    ratePerSecond: z.number().min(0).max(10_000).optional(),
    namespace: name.optional(),
  }),
  z.strictObject({ type: z.literal('workload.stop') }),
  z.strictObject({
    type: z.literal('replay.play'),
    speed: z.union([z.literal(1), z.literal(10), z.literal('max')]).optional(),
  }),
  z.strictObject({ type: z.literal('replay.pause') }),
  z.strictObject({ type: z.literal('replay.seek'), seq: z.number().int().min(0) }),
  z.strictObject({
    type: z.literal('cache.compare'),
    informer: z.string().min(1).max(320),
    pageSize: z.number().int().min(1).max(10_000).optional(),
  }),
  z.strictObject({
    type: z.literal('replay.step'),
    by: z
      .number()
      .int()
      .min(-1_000_000)
      .max(1_000_000)
      .refine((n) => n !== 0, { message: 'step by a non-zero number of events' }),
  }),
]);

export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: string };

function parseWith<T>(schema: z.ZodType, what: string, input: unknown): ParseResult<T> {
  const r = schema.safeParse(input);
  if (r.success) return { ok: true, value: r.data as T };
  return { ok: false, error: `invalid ${what}: ${z.prettifyError(r.error).replace(/\n\s*/g, '; ')}` };
}

export const parseCommand = (input: unknown): ParseResult<Command> => parseWith(commandSchema, 'command', input);
export const parseInspect = (input: unknown): ParseResult<InspectRequest> =>
  parseWith(inspectSchema, 'inspect request', input);
export const parseHello = (input: unknown): ParseResult<HelloRequest> => parseWith(helloSchema, 'hello', input);
export const parseSubscription = (input: unknown): ParseResult<Subscription> =>
  parseWith(subscriptionSchema, 'subscription', input);

// Compile-time: each schema accepts exactly the shared type (both directions assignable).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _command: Same<z.infer<typeof commandSchema>, Command> = true;
const _inspect: Same<z.infer<typeof inspectSchema>, InspectRequest> = true;
const _hello: Same<z.infer<typeof helloSchema>, HelloRequest> = true;
const _subscription: Same<z.infer<typeof subscriptionSchema>, Subscription> = true;
void [_command, _inspect, _hello, _subscription];
