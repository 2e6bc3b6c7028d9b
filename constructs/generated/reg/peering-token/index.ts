// https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/resources/peering_token
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from 'cdktf';

// Configuration

export interface PeeringTokenConfig extends cdktf.TerraformMetaArguments {
  /**
  * Name this registry gives the peer (a DNS label).
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/resources/peering_token#peer_name PeeringToken#peer_name}
  */
  readonly peerName: string;
  /**
  * Partition of the peering.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/resources/peering_token#partition PeeringToken#partition}
  */
  readonly partition?: string;
  /**
  * Datacenter generating the token; the provider datacenter, else the agent one.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/resources/peering_token#datacenter PeeringToken#datacenter}
  */
  readonly datacenter?: string;
  /**
  * Metadata of the peering.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/resources/peering_token#meta PeeringToken#meta}
  */
  readonly meta?: { [key: string]: string };
  /**
  * timeouts block
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/resources/peering_token#timeouts PeeringToken#timeouts}
  */
  readonly timeouts?: PeeringTokenTimeouts;
}
export interface PeeringTokenTimeouts {
  /**
  * How long create may take, e.g. "10m".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/resources/peering_token#create PeeringToken#create}
  */
  readonly create?: string;
}

export function peeringTokenTimeoutsToTerraform(struct?: PeeringTokenTimeouts | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    create: cdktf.stringToTerraform(struct!.create),
  }
}


export function peeringTokenTimeoutsToHclTerraform(struct?: PeeringTokenTimeouts | cdktf.IResolvable): any {
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
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class PeeringTokenTimeoutsOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): PeeringTokenTimeouts | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._create !== undefined) {
      hasAnyValues = true;
      internalValueResult.create = this._create;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: PeeringTokenTimeouts | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._create = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._create = value.create;
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
}

/**
* Represents a {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/resources/peering_token reg_peering_token}
*/
export class PeeringToken extends cdktf.TerraformResource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "reg_peering_token";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a PeeringToken resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the PeeringToken to import
  * @param importFromId The id of the existing PeeringToken that should be imported. Refer to the {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/resources/peering_token#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the PeeringToken to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "reg_peering_token", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/resources/peering_token reg_peering_token} Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options PeeringTokenConfig
  */
  public constructor(scope: Construct, id: string, config: PeeringTokenConfig) {
    super(scope, id, {
      terraformResourceType: 'reg_peering_token',
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
    this._peerName = config.peerName;
    this._partition = config.partition;
    this._datacenter = config.datacenter;
    this._meta = config.meta;
    this._timeouts.internalValue = config.timeouts;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // id - computed: true, optional: false, required: false
  public get id() {
    return this.getStringAttribute('id');
  }

  // peer_name - computed: false, optional: false, required: true
  private _peerName?: string; 
  public get peerName() {
    return this.getStringAttribute('peer_name');
  }
  public set peerName(value: string) {
    this._peerName = value;
  }
  // Temporarily expose input value. Use with caution.
  public get peerNameInput() {
    return this._peerName;
  }

  // partition - computed: false, optional: true, required: false
  private _partition?: string; 
  public get partition() {
    return this.getStringAttribute('partition');
  }
  public set partition(value: string) {
    this._partition = value;
  }
  public resetPartition() {
    this._partition = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get partitionInput() {
    return this._partition;
  }

  // datacenter - computed: false, optional: true, required: false
  private _datacenter?: string; 
  public get datacenter() {
    return this.getStringAttribute('datacenter');
  }
  public set datacenter(value: string) {
    this._datacenter = value;
  }
  public resetDatacenter() {
    this._datacenter = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get datacenterInput() {
    return this._datacenter;
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

  // peering_token - computed: true, optional: false, required: false
  public get peeringToken() {
    return this.getStringAttribute('peering_token');
  }

  // timeouts - computed: false, optional: true, required: false
  private _timeouts = new PeeringTokenTimeoutsOutputReference(this, "timeouts");
  public get timeouts() {
    return this._timeouts;
  }
  public putTimeouts(value: PeeringTokenTimeouts) {
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
      peer_name: cdktf.stringToTerraform(this._peerName),
      partition: cdktf.stringToTerraform(this._partition),
      datacenter: cdktf.stringToTerraform(this._datacenter),
      meta: cdktf.hashMapper(cdktf.stringToTerraform)(this._meta),
      timeouts: peeringTokenTimeoutsToTerraform(this._timeouts.internalValue),
    };
  }

  protected override synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      peer_name: {
        value: cdktf.stringToHclTerraform(this._peerName),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      partition: {
        value: cdktf.stringToHclTerraform(this._partition),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      datacenter: {
        value: cdktf.stringToHclTerraform(this._datacenter),
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
      timeouts: {
        value: peeringTokenTimeoutsToHclTerraform(this._timeouts.internalValue),
        isBlock: true,
        type: "struct",
        storageClassType: "PeeringTokenTimeouts",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
