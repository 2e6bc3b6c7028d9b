/** `cdktf-sched dev`: the embedded dev agent in the foreground, like `nomad agent -dev`. */
import { Command, Option, InvalidArgumentError } from 'commander';
import type { DevAgent } from '../agent';
import { loadAgent } from '../agent/load';

function int(name: string) {
  return (v: string): number => {
    if (!/^\d+$/.test(v)) throw new InvalidArgumentError(`${name} must be a whole number, got "${v}"`);
    return Number(v);
  };
}

function positive(name: string) {
  return (v: string): number => {
    const n = Number(v);
    if (!Number.isFinite(n) || n <= 0)
      throw new InvalidArgumentError(`${name} must be a positive number, got "${v}"`);
    return n;
  };
}

export function devCommand(): Command {
  return new Command('dev')
    .description('run the embedded dev agent (scheduler and registry) in the foreground')
    .option('--port <port>', 'scheduler HTTP port (0 picks a free one)', int('--port'), 4646)
    .option('--registry-port <port>', 'registry HTTP port (0 picks a free one)', int('--registry-port'), 8500)
    .option('--bind <address>', 'address to listen on', '127.0.0.1')
    .option('--nodes <n>', 'simulated client nodes', int('--nodes'), 3)
    .option('--node-cpu <mhz>', 'CPU of each node in MHz', int('--node-cpu'), 4000)
    .option('--node-memory <mb>', 'memory of each node in MB', int('--node-memory'), 8192)
    .option('--datacenter <dc>', 'datacenter of the nodes', 'dc1')
    .option('--region <region>', 'region of the agent', 'global')
    .option('--data-dir <dir>', 'keep state in this directory across restarts')
    .option(
      '--time-scale <factor>',
      'multiply every duration the agent waits on (0.1 = ten times faster)',
      positive('--time-scale'),
      1,
    )
    .option('--acl', 'turn on ACLs', false)
    .option('--bootstrap-token <secret>', 'management token to create when ACLs are on')
    .option('--tls-cert <file>', 'serve HTTPS with this certificate (PEM file; needs --tls-key)')
    .option('--tls-key <file>', 'private key of --tls-cert (PEM file)')
    .option('--tls-ca <file>', 'CA of client certificates, and what peers are told to trust (PEM file)')
    .option('--tls-verify-incoming', 'refuse clients without a certificate signed by --tls-ca', false)
    .addOption(
      new Option('--dialect <names>', "wire names: the specs' neutral ones, or Nomad's and Consul's own")
        .choices(['neutral', 'hashicorp'])
        .default('neutral'),
    )
    .option('--verbose', 'log internal errors', false)
    .action(async (o: Record<string, unknown>) => {
      const cert = o['tlsCert'] as string | undefined;
      const key = o['tlsKey'] as string | undefined;
      const ca = o['tlsCa'] as string | undefined;
      const verifyIncoming = o['tlsVerifyIncoming'] as boolean;
      if ((cert === undefined) !== (key === undefined))
        throw new Error('--tls-cert and --tls-key go together: give both or neither');
      if (cert === undefined && (ca !== undefined || verifyIncoming))
        throw new Error('--tls-ca and --tls-verify-incoming need --tls-cert and --tls-key');
      const agent = await loadAgent().startDevAgent({
        port: o['port'] as number,
        registryPort: o['registryPort'] as number,
        bind: o['bind'] as string,
        nodes: o['nodes'] as number,
        nodeCpu: o['nodeCpu'] as number,
        nodeMemory: o['nodeMemory'] as number,
        datacenter: o['datacenter'] as string,
        region: o['region'] as string,
        dataDir: o['dataDir'] as string | undefined,
        timeScale: o['timeScale'] as number,
        acl: o['acl'] as boolean,
        bootstrapToken: o['bootstrapToken'] as string | undefined,
        dialect: o['dialect'] as 'neutral' | 'hashicorp',
        ...(cert && key ? { tls: { cert, key, ca, verifyIncoming } } : {}),
        log: o['verbose'] ? (line) => process.stderr.write(`${line}\n`) : undefined,
      });
      process.stdout.write(`scheduler: ${agent.schedulerUrl}\n`);
      if (agent.registryUrl) process.stdout.write(`registry: ${agent.registryUrl}\n`);
      await untilSignal(agent);
    });
}

function untilSignal(agent: DevAgent): Promise<void> {
  return new Promise((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals): void => {
      if (stopping) process.exit(130);
      stopping = true;
      process.stderr.write(`received ${signal}, shutting down\n`);
      void agent.stop().then(resolve, (err: unknown) => {
        process.stderr.write(`shutdown failed: ${String(err)}\n`);
        process.exitCode = 1;
        resolve();
      });
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
