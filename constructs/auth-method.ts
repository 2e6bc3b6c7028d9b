/**
 * `AuthMethod`: a reg_acl_auth_method whose `config` may be given as an object (written as canonical
 * JSON) and whose enumerated settings are typed. The config holds secrets (client secrets, JWTs): the
 * attribute is sensitive in the provider schema, and synth errors name fields, never values.
 */
import type { Construct } from 'constructs';
import { AclAuthMethod, type AclAuthMethodConfig } from './generated/reg/acl-auth-method';
import { canonicalJson, escapeTemplate } from './terraform-text';
import { addHandlerValidation } from './validation';

/** Known auth method types; others pass through for registries that know more. */
export type AuthMethodType = 'kubernetes' | 'jwt' | 'oidc' | (string & {});

export interface AuthMethodProps extends Omit<AclAuthMethodConfig, 'type' | 'config' | 'tokenLocality'> {
  readonly type: AuthMethodType;
  /** Type-specific configuration: an object, or its JSON text. */
  readonly config: Readonly<Record<string, unknown>> | string;
  readonly tokenLocality?: 'local' | 'global';
}

export class AuthMethod extends AclAuthMethod {
  constructor(scope: Construct, id: string, props: AuthMethodProps) {
    const { config, ...rest } = props;
    super(scope, id, {
      ...rest,
      config: typeof config === 'string' ? escapeTemplate(config) : canonicalJson(config),
    });
    addHandlerValidation(this, {
      provider: 'reg',
      typeName: 'reg_acl_auth_method',
      attributes: () => this.synthesizeAttributes(),
    });
  }
}
