/**
 * `Peering`: a reg_peering established with a token from the peer; the token may be given as the
 * peer's `PeeringToken` construct, whose (sensitive) output is then referenced.
 */
import type { Construct } from 'constructs';
import { Peering as PeeringResource, type PeeringConfig } from './generated/reg/peering';
import { PeeringToken } from './peering-token';
import { addHandlerValidation } from './validation';

export interface PeeringProps extends Omit<PeeringConfig, 'peeringToken'> {
  /** The token the peer generated: its text, or the peer's PeeringToken resource. */
  readonly peeringToken: string | PeeringToken;
}

export class Peering extends PeeringResource {
  constructor(scope: Construct, id: string, props: PeeringProps) {
    const { peeringToken, ...rest } = props;
    super(scope, id, {
      ...rest,
      peeringToken: peeringToken instanceof PeeringToken ? peeringToken.peeringToken : peeringToken,
    });
    addHandlerValidation(this, {
      provider: 'reg',
      typeName: 'reg_peering',
      attributes: () => this.synthesizeAttributes(),
    });
  }
}
