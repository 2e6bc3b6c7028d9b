/** Settings of the dev agent, shared by `cdktf-sched dev` and `startDevAgent()`. */
import { z } from 'zod';

export const DevAgentOptionsSchema = z.object({
  /** Scheduler port; 0 picks a free one. */
  port: z.number().int().min(0).max(65535).default(4646),
  /** Registry port; 0 picks a free one. */
  registryPort: z.number().int().min(0).max(65535).default(8500),
  bind: z.string().min(1).default('127.0.0.1'),
  nodes: z.number().int().min(0).max(1000).default(3),
  nodeCpu: z.number().int().min(100).default(4000),
  nodeMemory: z.number().int().min(128).default(8192),
  nodeDisk: z
    .number()
    .int()
    .min(1024)
    .default(100 * 1024),
  datacenter: z
    .string()
    .regex(/^[a-zA-Z0-9_-]+$/, 'letters, digits, "-" and "_" only')
    .default('dc1'),
  region: z
    .string()
    .regex(/^[a-zA-Z0-9_-]+$/, 'letters, digits, "-" and "_" only')
    .default('global'),
  nodePool: z.string().default('default'),
  /** Directory for durable state; without it state lives in memory. */
  dataDir: z.string().optional(),
  /** Multiplies every duration the agent waits on (0.01 = a hundred times faster). */
  timeScale: z.number().positive().default(1),
  acl: z.boolean().default(false),
  /**
   * Serve both APIs over HTTPS, as an agent with Nomad's `tls { http = true }` or Consul's HTTPS port.
   * Each of cert, key and ca is PEM text or the path of a PEM file.
   */
  tls: z
    .object({
      cert: z.string().min(1),
      key: z.string().min(1),
      /** CA of the client certificates to accept, and what peers are told to trust (default: cert). */
      ca: z.string().min(1).optional(),
      /** Refuse clients without a certificate signed by `ca` (Nomad's verify_https_client). */
      verifyIncoming: z.boolean().default(false),
    })
    .refine((t) => !t.verifyIncoming || t.ca !== undefined, {
      message: 'verifyIncoming needs ca: the CA that signs the client certificates',
      path: ['ca'],
    })
    .optional(),
  bootstrapToken: z.string().optional(),
  /** Time a client has to send a request's headers (Node answers 408 and closes the connection). */
  headersTimeoutMs: z.number().int().positive().default(30_000),
  /** Time a client has to send a whole request, body included; answers (blocking queries) are not counted. */
  requestTimeoutMs: z.number().int().positive().default(60_000),
  /**
   * Keep every request served in `DevAgent.requests` (tests and benchmarks count them). Off by default:
   * a long-running agent would keep them all.
   */
  recordRequests: z.boolean().default(false),
  /**
   * The wire names both services speak: `neutral` (the specs' `X-Sched-*`, `Secrets`, ...) or
   * `hashicorp` (Nomad's and Consul's own: `X-Nomad-*`, `Vault`, Go zero values, Nomad's defaults).
   */
  dialect: z.enum(['neutral', 'hashicorp']).default('neutral'),
  /** Serve the registry too (default); tests of one service may turn it off. */
  registry: z.boolean().default(true),
  log: z.custom<(line: string) => void>((v) => v === undefined || typeof v === 'function').optional(),
});

export type DevAgentOptions = z.input<typeof DevAgentOptionsSchema>;
export type ResolvedDevAgentOptions = z.output<typeof DevAgentOptionsSchema>;
