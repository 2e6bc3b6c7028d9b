/**
 * Terraform's built-in `terraform` provider (`terraform.io/builtin/terraform`): needs no block and no
 * configuration, and serves the `terraform_remote_state` data source.
 */
import type { DataSourceHandler } from '../../provider/resource';
import type { State } from '../../provider/resource';
import { RemoteStateDataSource, remoteStateRecord } from './data-source';
import type { RemoteStateReader } from './types';

export const BUILTIN_PROVIDER = 'terraform';

export interface BuiltinProvider {
  readonly dataSources: Readonly<Record<string, DataSourceHandler>>;
  /** A data source's value in the form terraform records it in state. */
  record(type: string, value: State): State;
}

export function terraformBuiltinProvider(opts: {
  read: RemoteStateReader;
  baseDir: string;
}): BuiltinProvider {
  return {
    dataSources: { terraform_remote_state: new RemoteStateDataSource(opts.read, opts.baseDir) },
    record: (type, value) => (type === 'terraform_remote_state' ? remoteStateRecord(value) : value),
  };
}
