// https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/resources/namespace
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from 'cdktf';

// Configuration

export interface NamespaceConfig extends cdktf.TerraformMetaArguments {
  /**
  * Name of the namespace (a DNS label).
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/resources/namespace#name Namespace#name}
  */
  readonly name: string;
  /**
  * Free-form description.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/resources/namespace#description Namespace#description}
  */
  readonly description?: string;
  /**
  * Arbitrary metadata.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/resources/namespace#meta Namespace#meta}
  */
  readonly meta?: { [key: string]: string };
  /**
  * Names or IDs of ACL policies applied to every token created in the namespace.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/resources/namespace#policy_defaults Namespace#policy_defaults}
  */
  readonly policyDefaults?: string[];
  /**
  * Names or IDs of ACL roles applied to every token created in the namespace.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/resources/namespace#role_defaults Namespace#role_defaults}
  */
  readonly roleDefaults?: string[];
  /**
  * timeouts block
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/resources/namespace#timeouts Namespace#timeouts}
  */
  readonly timeouts?: NamespaceTimeouts;
}
export interface NamespaceTimeouts {
  /**
  * How long create may take, e.g. "10m".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/resources/namespace#create Namespace#create}
  */
  readonly create?: string;
  /**
  * How long delete may take, e.g. "10m".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/resources/namespace#delete Namespace#delete}
  */
  readonly delete?: string;
}

export function namespaceTimeoutsToTerraform(struct?: NamespaceTimeouts | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    create: cdktf.stringToTerraform(struct!.create),
    delete: cdktf.stringToTerraform(struct!.delete),
  }
}


export function namespaceTimeoutsToHclTerraform(struct?: NamespaceTimeouts | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    create: {
      value: cdktf.stringToHclTerraform(struct!.create),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    delete: {
      value: cdktf.stringToHclTerraform(struct!.delete),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class NamespaceTimeoutsOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): NamespaceTimeouts | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._create !== undefined) {
      hasAnyValues = true;
      internalValueResult.create = this._create;
    }
    if (this._delete !== undefined) {
      hasAnyValues = true;
      internalValueResult.delete = this._delete;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: NamespaceTimeouts | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._create = undefined;
      this._delete = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._create = value.create;
      this._delete = value.delete;
    }
  }

  // create - computed: false, optional: true, required: false
  private _create?: string; 
  public get create() {
    return this.getStringAttribute('create');
  }
  public set create(value: string) {
    this._create = value;
  }
  public resetCreate() {
    this._create = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get createInput() {
    return this._create;
  }

  // delete - computed: false, optional: true, required: false
  private _delete?: string; 
  public get delete() {
    return this.getStringAttribute('delete');
  }
  public set delete(value: string) {
    this._delete = value;
  }
  public resetDelete() {
    this._delete = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get deleteInput() {
    return this._delete;
  }
}

/**
* Represents a {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/resources/namespace reg_namespace}
*/
export class Namespace extends cdktf.TerraformResource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "reg_namespace";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a Namespace resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the Namespace to import
  * @param importFromId The id of the existing Namespace that should be imported. Refer to the {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/resources/namespace#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the Namespace to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "reg_namespace", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/resources/namespace reg_namespace} Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options NamespaceConfig
  */
  public constructor(scope: Construct, id: string, config: NamespaceConfig) {
    super(scope, id, {
      terraformResourceType: 'reg_namespace',
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
    this._description = config.description;
    this._meta = config.meta;
    this._policyDefaults = config.policyDefaults;
    this._roleDefaults = config.roleDefaults;
    this._timeouts.internalValue = config.timeouts;
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

  // meta - computed: false, optional: true, required: false
  private _meta?: { [key: string]: string }; 
  public get meta() {
    return this.getStringMapAttribute('meta');
  }
  public set meta(value: { [key: string]: string }) {
    this._meta = value;
  }
  public resetMeta() {
    this._meta = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get metaInput() {
    return this._meta;
  }

  // policy_defaults - computed: false, optional: true, required: false
  private _policyDefaults?: string[]; 
  public get policyDefaults() {
    return this.getListAttribute('policy_defaults');
  }
  public set policyDefaults(value: string[]) {
    this._policyDefaults = value;
  }
  public resetPolicyDefaults() {
    this._policyDefaults = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get policyDefaultsInput() {
    return this._policyDefaults;
  }

  // role_defaults - computed: false, optional: true, required: false
  private _roleDefaults?: string[]; 
  public get roleDefaults() {
    return this.getListAttribute('role_defaults');
  }
  public set roleDefaults(value: string[]) {
    this._roleDefaults = value;
  }
  public resetRoleDefaults() {
    this._roleDefaults = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get roleDefaultsInput() {
    return this._roleDefaults;
  }

  // timeouts - computed: false, optional: true, required: false
  private _timeouts = new NamespaceTimeoutsOutputReference(this, "timeouts");
  public get timeouts() {
    return this._timeouts;
  }
  public putTimeouts(value: NamespaceTimeouts) {
    this._timeouts.internalValue = value;
  }
  public resetTimeouts() {
    this._timeouts.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get timeoutsInput() {
    return this._timeouts.internalValue;
  }

  // =========
  // SYNTHESIS
  // =========

  protected override synthesizeAttributes(): { [name: string]: any } {
    return {
      name: cdktf.stringToTerraform(this._name),
      description: cdktf.stringToTerraform(this._description),
      meta: cdktf.hashMapper(cdktf.stringToTerraform)(this._meta),
      policy_defaults: cdktf.listMapper(cdktf.stringToTerraform, false)(this._policyDefaults),
      role_defaults: cdktf.listMapper(cdktf.stringToTerraform, false)(this._roleDefaults),
      timeouts: namespaceTimeoutsToTerraform(this._timeouts.internalValue),
    };
  }

  protected override synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      name: {
        value: cdktf.stringToHclTerraform(this._name),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      description: {
        value: cdktf.stringToHclTerraform(this._description),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      meta: {
        value: cdktf.hashMapperHcl(cdktf.stringToHclTerraform)(this._meta),
        isBlock: false,
        type: "map",
        storageClassType: "stringMap",
      },
      policy_defaults: {
        value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(this._policyDefaults),
        isBlock: false,
        type: "list",
        storageClassType: "stringList",
      },
      role_defaults: {
        value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(this._roleDefaults),
        isBlock: false,
        type: "list",
        storageClassType: "stringList",
      },
      timeouts: {
        value: namespaceTimeoutsToHclTerraform(this._timeouts.internalValue),
        isBlock: true,
        type: "struct",
        storageClassType: "NamespaceTimeouts",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
