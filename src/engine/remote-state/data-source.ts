/**
 * The `terraform_remote_state` data source of Terraform's built-in `terraform` provider: the root
 * outputs of another state as the `outputs` attribute, over `defaults`, read through the injected
 * backend reader. As in terraform, a workspace with no stored state is an error ("Unable to find
 * remote state"), and a missing `workspace` means "default".
 */
import { z } from 'zod';
import type { Config, DataSourceHandler, State } from '../../provider/resource';
import { attr } from '../../provider/schema';
import { errorAt, validateShape } from '../../provider/common/shape';
import { isUnknown, type Diagnostic } from '../../provider/values';
import { impliedType, sortKeysDeep } from '../state/format';
import { localStateFile } from './local-backend';
import { DEFAULT_WORKSPACE, RemoteStateError, type RemoteStateReader } from './types';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !isUnknown(v);

export const remoteStateShape = {
  backend: attr(z.string().min(1), { required: true, description: 'The backend type, e.g. `local`.' }),
  // Backend settings can hold credentials (a pg conn_str, an http password): masked wherever shown.
  config: attr(z.record(z.string(), z.unknown()).nullish(), {
    optional: true,
    sensitive: true,
    description: 'The settings of the backend, as in its `terraform { backend ... }` block.',
  }),
  defaults: attr(z.record(z.string(), z.unknown()).nullish(), {
    optional: true,
    description: 'Values for outputs the state lacks.',
  }),
  workspace: attr(z.string().min(1).nullish(), {
    optional: true,
    description: 'The workspace to read (default "default").',
  }),
  // The other stack's outputs include its sensitive ones (cdktf marks every cross-stack output so).
  outputs: attr(z.record(z.string(), z.unknown()), {
    computed: true,
    sensitive: true,
    description: 'Every root output of the remote state.',
  }),
};

/** The attributes terraform types as "any value" (cty's dynamic pseudo-type). */
const DYNAMIC_ATTRIBUTES = ['config', 'defaults', 'outputs'] as const;

/**
 * The data source's state as terraform records it: a dynamically typed attribute is stored with its
 * type beside its value (`{"value": ..., "type": [...]}`); stored bare, `terraform state show` fails.
 */
export function remoteStateRecord(value: State): State {
  const out: State = { ...value };
  for (const name of DYNAMIC_ATTRIBUTES) {
    const v = value[name];
    if (v !== null && v !== undefined) out[name] = { value: sortKeysDeep(v), type: impliedType(v) };
  }
  return out;
}

export class RemoteStateDataSource implements DataSourceHandler {
  readonly typeName = 'terraform_remote_state';
  readonly description = 'Reads the root outputs of another state.';
  readonly shape = remoteStateShape;

  constructor(
    private readonly read_: RemoteStateReader,
    /** Where relative local paths resolve: the reading stack's working directory. */
    private readonly baseDir: string,
  ) {}

  validate(config: Config): Diagnostic[] {
    const out = validateShape(remoteStateShape, config);
    for (const name of ['config', 'defaults'] as const) {
      const v = config[name];
      if (v !== undefined && v !== null && !isUnknown(v) && !isObject(v))
        out.push(errorAt([name], `Invalid value for "${name}"`, `${name} must be an object`));
    }
    return out;
  }

  async read(config: Config): Promise<State> {
    const backend = String(config['backend']);
    const settings = isObject(config['config']) ? config['config'] : {};
    const workspace = typeof config['workspace'] === 'string' ? config['workspace'] : DEFAULT_WORKSPACE;
    const recorded = await this.read_({ backend, config: settings, workspace, baseDir: this.baseDir });
    if (recorded === null) {
      const where = backend === 'local' ? ` (${localStateFile(settings, workspace, this.baseDir)})` : '';
      throw new RemoteStateError(
        `Unable to find remote state: no stored state was found for workspace "${workspace}" in the "${backend}" backend${where}; deploy that stack first`,
      );
    }
    const outputs: Record<string, unknown> = isObject(config['defaults']) ? { ...config['defaults'] } : {};
    for (const [name, o] of Object.entries(recorded)) outputs[name] = o.value;
    return {
      backend,
      config: config['config'] ?? null,
      defaults: config['defaults'] ?? null,
      workspace: config['workspace'] ?? null,
      outputs,
    };
  }
}
