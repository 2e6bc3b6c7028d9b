/**
 * `PeeringToken`: a reg_peering_token. Its `peeringToken` output is sensitive (marked so in the
 * provider schema); pass it to a `Peering` on the other registry, or to an output with `sensitive: true`.
 */
import type { Construct } from 'constructs';
import { PeeringToken as PeeringTokenResource, type PeeringTokenConfig } from './generated/reg/peering-token';
import { addHandlerValidation } from './validation';

export type PeeringTokenProps = PeeringTokenConfig;

export class PeeringToken extends PeeringTokenResource {
  constructor(scope: Construct, id: string, props: PeeringTokenProps) {
    super(scope, id, props);
    addHandlerValidation(this, {
      provider: 'reg',
      typeName: 'reg_peering_token',
      attributes: () => this.synthesizeAttributes(),
    });
  }
}
