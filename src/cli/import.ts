/** `cdktf-sched import ADDR ID` and `cdktf-sched refresh`. */
import { Command } from 'commander';
import {
  createStackScope,
  evaluateProviderConfig,
  parseInstanceAddress,
  resolveVariables,
} from '../engine/config';
import { planStack } from '../engine/plan/plan';
import { stateWriterFor } from '../engine/stack-state';
import { providerConfigAddress } from '../engine/state';
import type { StackSession } from '../engine/session';
import { ExitCode, type CliIO } from './io';
import { printDiagnostics } from './render-plan';
import {
  addStackOptions,
  prepare,
  stackPlanInput,
  stackVariables,
  withStack,
  type StackOptions,
} from './stack-command';

function configureFor(
  s: StackSession,
  provider: { name: string; alias?: string },
  vars: Record<string, unknown>,
): string {
  const address = provider.alias ? `${provider.name}.${provider.alias}` : provider.name;
  const block = s.loaded.config.providers.get(address);
  const scope = createStackScope({ config: s.loaded.config, variables: vars });
  const cfg = block ? evaluateProviderConfig(block, scope) : {};
  const diags = s.providers.configure(address, provider.name, cfg);
  const err = diags.find((d) => d.severity === 'error');
  if (err) throw new Error(`provider ${address}: ${err.summary}${err.detail ? `: ${err.detail}` : ''}`);
  return address;
}

export function importCommand(io: CliIO): Command {
  return addStackOptions(new Command('import'))
    .description('adopt an existing object into the state under ADDR (e.g. sched_job.web web@default)')
    .argument('<address>', 'resource instance address in the configuration')
    .argument('<id>', "the object's ID as the resource type takes it")
    .action(async (address: string, id: string, o: StackOptions) => {
      const run = await prepare(io, o);
      try {
        await withStack(
          run,
          run.stacks[0]!,
          'OperationTypeImport',
          async (s) => {
            const parsed = parseInstanceAddress(address);
            if (!parsed || parsed.mode !== 'managed')
              throw new ExitCode(1, `${address} is not a resource instance address`);
            const block = s.loaded.config.resources.get(`${parsed.type}.${parsed.name}`);
            if (!block) {
              throw new ExitCode(
                1,
                `${address}: no resource "${parsed.type}.${parsed.name}" in the configuration; declare it first, then import`,
              );
            }
            if (s.state.has(address))
              throw new ExitCode(1, `${address} is already managed; remove it with "state rm" first`);
            const vars = resolveVariables(
              s.loaded.config,
              stackVariables(o, { env: run.env, appDir: run.project.dir }, s.loaded.config),
            );
            const providerAddr = configureFor(s, block.provider, vars.values);
            const handler = s.providers.resource(providerAddr, parsed.type);
            const state = await handler.import(id);
            const writer = stateWriterFor(s);
            await writer.update((st) =>
              st.set(
                address,
                {
                  schemaVersion: handler.version,
                  attributes: state,
                  sensitiveAttributes: s.providers
                    .sensitive(block.provider.name, parsed.type, 'managed')
                    .map((k) => [k]),
                },
                { provider: providerConfigAddress(block.provider.name, block.provider.alias) },
              ),
            );
            await writer.settle();
            io.stdout.write(`Imported ${id} as ${address}.\n`);
          },
          io,
        );
      } finally {
        await run.close();
      }
    });
}

export function refreshCommand(io: CliIO): Command {
  return addStackOptions(new Command('refresh'))
    .description('read every resource from the cluster and record what it finds (no changes made)')
    .action(async (o: StackOptions) => {
      const run = await prepare(io, o, { all: true });
      let failed = false;
      try {
        for (const stack of run.stacks) {
          await withStack(
            run,
            stack,
            'OperationTypeRefresh',
            async (s) => {
              const plan = await planStack({ ...stackPlanInput(run, stack, s, o), mode: 'refresh-only' });
              printDiagnostics(io, plan);
              if (plan.errored) {
                failed = true;
                return;
              }
              const writer = stateWriterFor(s);
              let gone = 0;
              await writer.update((st) => {
                // Orphans too: what the configuration dropped is still recorded until deleted.
                for (const ip of plan.instances) {
                  const prior = ip.change.prior;
                  if (prior === null) {
                    if (st.has(ip.address)) {
                      st.remove(ip.address);
                      gone++;
                    }
                    continue;
                  }
                  const obj = st.get(ip.address);
                  // Found: an interrupted create that did happen is now recorded for good.
                  if (obj) st.set(ip.address, { ...obj, attributes: prior, createPending: false });
                }
              });
              await writer.settle();
              io.stdout.write(
                `Refreshed ${plan.instances.length} resources of stack ${stack.name}${gone ? `; ${gone} no longer exist and were removed from state` : ''}.\n`,
              );
            },
            io,
          );
        }
      } finally {
        await run.close();
      }
      if (failed) throw new ExitCode(1);
    });
}
