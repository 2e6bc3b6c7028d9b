/**
 * Namespaces of both services: `SchedNamespace` (sched_namespace) and `RegNamespace` (reg_namespace),
 * the generated resources with the providers' rules checked at synth.
 */
import type { Construct } from 'constructs';
import {
  Namespace as RegNamespaceResource,
  type NamespaceConfig as RegNamespaceConfig,
} from './generated/reg/namespace';
import {
  Namespace as SchedNamespaceResource,
  type NamespaceConfig as SchedNamespaceConfig,
} from './generated/sched/namespace';
import { addHandlerValidation } from './validation';

export type { RegNamespaceConfig, SchedNamespaceConfig };

export class SchedNamespace extends SchedNamespaceResource {
  constructor(scope: Construct, id: string, props: SchedNamespaceConfig) {
    super(scope, id, props);
    addHandlerValidation(this, {
      provider: 'sched',
      typeName: 'sched_namespace',
      attributes: () => this.synthesizeAttributes(),
    });
  }
}

export class RegNamespace extends RegNamespaceResource {
  constructor(scope: Construct, id: string, props: RegNamespaceConfig) {
    super(scope, id, props);
    addHandlerValidation(this, {
      provider: 'reg',
      typeName: 'reg_namespace',
      attributes: () => this.synthesizeAttributes(),
    });
  }
}
