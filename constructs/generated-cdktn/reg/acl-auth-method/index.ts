// https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/resources/acl_auth_method
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktn from 'cdktn';

// Configuration

export interface AclAuthMethodConfig extends cdktn.TerraformMetaArguments {
  /**
  * Name of the auth method.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/resources/acl_auth_method#name AclAuthMethod#name}
  */
  readonly name: string;
  /**
  * Type of the auth method (kubernetes, jwt, oidc, ...).
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/resources/acl_auth_method#type AclAuthMethod#type}
  */
  readonly type: string;
  /**
  * Name shown instead of the name.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/resources/acl_auth_method#display_name AclAuthMethod#display_name}
  */
  readonly displayName?: string;
  /**
  * Free-form description.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/resources/acl_auth_method#description AclAuthMethod#description}
  */
  readonly description?: string;
  /**
  * Longest life of tokens created by this method: 1m to 24h; required for oidc.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/resources/acl_auth_method#max_token_ttl AclAuthMethod#max_token_ttl}
  */
  readonly maxTokenTtl?: string;
  /**
  * Whether tokens are local to the datacenter or global.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/resources/acl_auth_method#token_locality AclAuthMethod#token_locality}
  */
  readonly tokenLocality?: string;
  /**
  * Type-specific configuration, as a JSON object.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/resources/acl_auth_method#config AclAuthMethod#config}
  */
  readonly config: string;
  /**
  * Namespace that holds the auth method.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/resources/acl_auth_method#namespace AclAuthMethod#namespace}
  */
  readonly namespace?: string;
  /**
  * namespace_rule block
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/resources/acl_auth_method#namespace_rule AclAuthMethod#namespace_rule}
  */
  readonly namespaceRule?: AclAuthMethodNamespaceRule[] | cdktn.IResolvable;
}
export interface AclAuthMethodNamespaceRule {
  /**
  * Expression matched against the identity; empty matches all.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/resources/acl_auth_method#selector AclAuthMethod#selector}
  */
  readonly selector?: string;
  /**
  * Namespace the token is created in when the selector matches (may be templated).
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/resources/acl_auth_method#bind_namespace AclAuthMethod#bind_namespace}
  */
  readonly bindNamespace: string;
}

export function aclAuthMethodNamespaceRuleToTerraform(struct?: AclAuthMethodNamespaceRule | cdktn.IResolvable): any {
  if (!cdktn.canInspect(struct) || cdktn.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktn.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdktn.io/docs/concepts/resources#references");
  }
  return {
    selector: cdktn.stringToTerraform(struct!.selector),
    bind_namespace: cdktn.stringToTerraform(struct!.bindNamespace),
  }
}


export function aclAuthMethodNamespaceRuleToHclTerraform(struct?: AclAuthMethodNamespaceRule | cdktn.IResolvable): any {
  if (!cdktn.canInspect(struct) || cdktn.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktn.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdktn.io/docs/concepts/resources#references");
  }
  const attrs = {
    selector: {
      value: cdktn.stringToHclTerraform(struct!.selector),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    bind_namespace: {
      value: cdktn.stringToHclTerraform(struct!.bindNamespace),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class AclAuthMethodNamespaceRuleOutputReference extends cdktn.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktn.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  * @param complexObjectIndex the index of this item in the list
  * @param complexObjectIsFromSet whether the list is wrapping a set (will add tolist() to be able to access an item via an index)
  */
  public constructor(terraformResource: cdktn.IInterpolatingParent, terraformAttribute: string, complexObjectIndex: number, complexObjectIsFromSet: boolean) {
    super(terraformResource, terraformAttribute, complexObjectIsFromSet, complexObjectIndex);
  }

  public get internalValue(): AclAuthMethodNamespaceRule | cdktn.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._selector !== undefined) {
      hasAnyValues = true;
      internalValueResult.selector = this._selector;
    }
    if (this._bindNamespace !== undefined) {
      hasAnyValues = true;
      internalValueResult.bindNamespace = this._bindNamespace;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: AclAuthMethodNamespaceRule | cdktn.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._selector = undefined;
      this._bindNamespace = undefined;
    }
    else if (cdktn.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._selector = value.selector;
      this._bindNamespace = value.bindNamespace;
    }
  }

  // selector - computed: false, optional: true, required: false
  private _selector?: string; 
  public get selector() {
    return this.getStringAttribute('selector');
  }
  public set selector(value: string) {
    this._selector = value;
  }
  public resetSelector() {
    this._selector = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get selectorInput() {
    return this._selector;
  }

  // bind_namespace - computed: false, optional: false, required: true
  private _bindNamespace?: string; 
  public get bindNamespace() {
    return this.getStringAttribute('bind_namespace');
  }
  public set bindNamespace(value: string) {
    this._bindNamespace = value;
  }
  // Temporarily expose input value. Use with caution.
  public get bindNamespaceInput() {
    return this._bindNamespace;
  }
}

export class AclAuthMethodNamespaceRuleList extends cdktn.ComplexList {
  public internalValue? : AclAuthMethodNamespaceRule[] | cdktn.IResolvable

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  * @param wrapsSet whether the list is wrapping a set (will add tolist() to be able to access an item via an index)
  */
  constructor(terraformResource: cdktn.IInterpolatingParent, terraformAttribute: string, wrapsSet: boolean) {
    super(terraformResource, terraformAttribute, wrapsSet);
  }

  /**
  * @param index the index of the item to return
  */
  public get(index: number): AclAuthMethodNamespaceRuleOutputReference {
    return new AclAuthMethodNamespaceRuleOutputReference(this.terraformResource, this.terraformAttribute, index, this.wrapsSet);
  }
}

/**
* Represents a {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/resources/acl_auth_method reg_acl_auth_method}
*/
export class AclAuthMethod extends cdktn.TerraformResource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "reg_acl_auth_method";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTN code for importing a AclAuthMethod resource upon running "cdktn plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the AclAuthMethod to import
  * @param importFromId The id of the existing AclAuthMethod that should be imported. Refer to the {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/resources/acl_auth_method#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the AclAuthMethod to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktn.TerraformProvider) {
        return new cdktn.ImportableResource(scope, importToId, { terraformResourceType: "reg_acl_auth_method", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/resources/acl_auth_method reg_acl_auth_method} Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options AclAuthMethodConfig
  */
  public constructor(scope: Construct, id: string, config: AclAuthMethodConfig) {
    super(scope, id, {
      terraformResourceType: 'reg_acl_auth_method',
      terraformGeneratorMetadata: {
        providerName: 'reg',
        providerVersion: '0.1.0'
      },
      provider: config.provider,
      dependsOn: config.dependsOn,
      count: config.count,
      lifecycle: config.lifecycle,
      provisioners: config.provisioners,
      connection: config.connection,
      forEach: config.forEach
    });
    this._name = config.name;
    this._type = config.type;
    this._displayName = config.displayName;
    this._description = config.description;
    this._maxTokenTtl = config.maxTokenTtl;
    this._tokenLocality = config.tokenLocality;
    this._config = config.config;
    this._namespace = config.namespace;
    this._namespaceRule.internalValue = config.namespaceRule;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // id - computed: true, optional: false, required: false
  public get id() {
    return this.getStringAttribute('id');
  }

  // name - computed: false, optional: false, required: true
  private _name?: string; 
  public get name() {
    return this.getStringAttribute('name');
  }
  public set name(value: string) {
    this._name = value;
  }
  // Temporarily expose input value. Use with caution.
  public get nameInput() {
    return this._name;
  }

  // type - computed: false, optional: false, required: true
  private _type?: string; 
  public get type() {
    return this.getStringAttribute('type');
  }
  public set type(value: string) {
    this._type = value;
  }
  // Temporarily expose input value. Use with caution.
  public get typeInput() {
    return this._type;
  }

  // display_name - computed: false, optional: true, required: false
  private _displayName?: string; 
  public get displayName() {
    return this.getStringAttribute('display_name');
  }
  public set displayName(value: string) {
    this._displayName = value;
  }
  public resetDisplayName() {
    this._displayName = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get displayNameInput() {
    return this._displayName;
  }

  // description - computed: false, optional: true, required: false
  private _description?: string; 
  public get description() {
    return this.getStringAttribute('description');
  }
  public set description(value: string) {
    this._description = value;
  }
  public resetDescription() {
    this._description = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get descriptionInput() {
    return this._description;
  }

  // max_token_ttl - computed: false, optional: true, required: false
  private _maxTokenTtl?: string; 
  public get maxTokenTtl() {
    return this.getStringAttribute('max_token_ttl');
  }
  public set maxTokenTtl(value: string) {
    this._maxTokenTtl = value;
  }
  public resetMaxTokenTtl() {
    this._maxTokenTtl = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get maxTokenTtlInput() {
    return this._maxTokenTtl;
  }

  // token_locality - computed: false, optional: true, required: false
  private _tokenLocality?: string; 
  public get tokenLocality() {
    return this.getStringAttribute('token_locality');
  }
  public set tokenLocality(value: string) {
    this._tokenLocality = value;
  }
  public resetTokenLocality() {
    this._tokenLocality = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get tokenLocalityInput() {
    return this._tokenLocality;
  }

  // config - computed: false, optional: false, required: true
  private _config?: string; 
  public get config() {
    return this.getStringAttribute('config');
  }
  public set config(value: string) {
    this._config = value;
  }
  // Temporarily expose input value. Use with caution.
  public get configInput() {
    return this._config;
  }

  // namespace - computed: true, optional: true, required: false
  private _namespace?: string; 
  public get namespace() {
    return this.getStringAttribute('namespace');
  }
  public set namespace(value: string) {
    this._namespace = value;
  }
  public resetNamespace() {
    this._namespace = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get namespaceInput() {
    return this._namespace;
  }

  // modify_index - computed: true, optional: false, required: false
  public get modifyIndex() {
    return this.getNumberAttribute('modify_index');
  }

  // namespace_rule - computed: false, optional: true, required: false
  private _namespaceRule = new AclAuthMethodNamespaceRuleList(this, "namespace_rule", false);
  public get namespaceRule() {
    return this._namespaceRule;
  }
  public putNamespaceRule(value: AclAuthMethodNamespaceRule[] | cdktn.IResolvable) {
    this._namespaceRule.internalValue = value;
  }
  public resetNamespaceRule() {
    this._namespaceRule.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get namespaceRuleInput() {
    return this._namespaceRule.internalValue;
  }

  // =========
  // SYNTHESIS
  // =========

  protected override synthesizeAttributes(): { [name: string]: any } {
    return {
      name: cdktn.stringToTerraform(this._name),
      type: cdktn.stringToTerraform(this._type),
      display_name: cdktn.stringToTerraform(this._displayName),
      description: cdktn.stringToTerraform(this._description),
      max_token_ttl: cdktn.stringToTerraform(this._maxTokenTtl),
      token_locality: cdktn.stringToTerraform(this._tokenLocality),
      config: cdktn.stringToTerraform(this._config),
      namespace: cdktn.stringToTerraform(this._namespace),
      namespace_rule: cdktn.listMapper(aclAuthMethodNamespaceRuleToTerraform, true)(this._namespaceRule.internalValue),
    };
  }

  protected override synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      name: {
        value: cdktn.stringToHclTerraform(this._name),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      type: {
        value: cdktn.stringToHclTerraform(this._type),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      display_name: {
        value: cdktn.stringToHclTerraform(this._displayName),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      description: {
        value: cdktn.stringToHclTerraform(this._description),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      max_token_ttl: {
        value: cdktn.stringToHclTerraform(this._maxTokenTtl),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      token_locality: {
        value: cdktn.stringToHclTerraform(this._tokenLocality),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      config: {
        value: cdktn.stringToHclTerraform(this._config),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      namespace: {
        value: cdktn.stringToHclTerraform(this._namespace),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      namespace_rule: {
        value: cdktn.listMapperHcl(aclAuthMethodNamespaceRuleToHclTerraform, true)(this._namespaceRule.internalValue),
        isBlock: true,
        type: "list",
        storageClassType: "AclAuthMethodNamespaceRuleList",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
