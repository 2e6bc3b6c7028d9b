// https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/data-sources/discovery_chain
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktn from 'cdktn';

// Configuration

export interface DataRegDiscoveryChainConfig extends cdktn.TerraformMetaArguments {
  /**
  * Service to compile.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/data-sources/discovery_chain#service DataRegDiscoveryChain#service}
  */
  readonly service: string;
  /**
  * Source namespace.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/data-sources/discovery_chain#namespace DataRegDiscoveryChain#namespace}
  */
  readonly namespace?: string;
  /**
  * Datacenter the chain is compiled for (compile-dc); the provider's by default.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/data-sources/discovery_chain#datacenter DataRegDiscoveryChain#datacenter}
  */
  readonly datacenter?: string;
  /**
  * Overrides the final connect timeout of every resolved service.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/data-sources/discovery_chain#override_connect_timeout DataRegDiscoveryChain#override_connect_timeout}
  */
  readonly overrideConnectTimeout?: string;
  /**
  * Overrides the final protocol: tcp drops routers and splitters.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/data-sources/discovery_chain#override_protocol DataRegDiscoveryChain#override_protocol}
  */
  readonly overrideProtocol?: string;
  /**
  * override_mesh_gateway block
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/data-sources/discovery_chain#override_mesh_gateway DataRegDiscoveryChain#override_mesh_gateway}
  */
  readonly overrideMeshGateway: DataRegDiscoveryChainOverrideMeshGateway;
}
export interface DataRegDiscoveryChainOverrideMeshGateway {
  /**
  * Mesh gateway mode: none, local or remote.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/data-sources/discovery_chain#mode DataRegDiscoveryChain#mode}
  */
  readonly mode: string;
}

export function dataRegDiscoveryChainOverrideMeshGatewayToTerraform(struct?: DataRegDiscoveryChainOverrideMeshGateway | cdktn.IResolvable): any {
  if (!cdktn.canInspect(struct) || cdktn.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktn.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdktn.io/docs/concepts/resources#references");
  }
  return {
    mode: cdktn.stringToTerraform(struct!.mode),
  }
}


export function dataRegDiscoveryChainOverrideMeshGatewayToHclTerraform(struct?: DataRegDiscoveryChainOverrideMeshGateway | cdktn.IResolvable): any {
  if (!cdktn.canInspect(struct) || cdktn.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktn.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdktn.io/docs/concepts/resources#references");
  }
  const attrs = {
    mode: {
      value: cdktn.stringToHclTerraform(struct!.mode),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class DataRegDiscoveryChainOverrideMeshGatewayOutputReference extends cdktn.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktn.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktn.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): DataRegDiscoveryChainOverrideMeshGateway | cdktn.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._mode !== undefined) {
      hasAnyValues = true;
      internalValueResult.mode = this._mode;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: DataRegDiscoveryChainOverrideMeshGateway | cdktn.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._mode = undefined;
    }
    else if (cdktn.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._mode = value.mode;
    }
  }

  // mode - computed: false, optional: false, required: true
  private _mode?: string; 
  public get mode() {
    return this.getStringAttribute('mode');
  }
  public set mode(value: string) {
    this._mode = value;
  }
  // Temporarily expose input value. Use with caution.
  public get modeInput() {
    return this._mode;
  }
}

/**
* Represents a {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/data-sources/discovery_chain reg_discovery_chain}
*/
export class DataRegDiscoveryChain extends cdktn.TerraformDataSource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "reg_discovery_chain";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTN code for importing a DataRegDiscoveryChain resource upon running "cdktn plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the DataRegDiscoveryChain to import
  * @param importFromId The id of the existing DataRegDiscoveryChain that should be imported. Refer to the {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/data-sources/discovery_chain#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the DataRegDiscoveryChain to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktn.TerraformProvider) {
        return new cdktn.ImportableResource(scope, importToId, { terraformResourceType: "reg_discovery_chain", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/data-sources/discovery_chain reg_discovery_chain} Data Source
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options DataRegDiscoveryChainConfig
  */
  public constructor(scope: Construct, id: string, config: DataRegDiscoveryChainConfig) {
    super(scope, id, {
      terraformResourceType: 'reg_discovery_chain',
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
    this._service = config.service;
    this._namespace = config.namespace;
    this._datacenter = config.datacenter;
    this._overrideConnectTimeout = config.overrideConnectTimeout;
    this._overrideProtocol = config.overrideProtocol;
    this._overrideMeshGateway.internalValue = config.overrideMeshGateway;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // service - computed: false, optional: false, required: true
  private _service?: string; 
  public get service() {
    return this.getStringAttribute('service');
  }
  public set service(value: string) {
    this._service = value;
  }
  // Temporarily expose input value. Use with caution.
  public get serviceInput() {
    return this._service;
  }

  // namespace - computed: false, optional: true, required: false
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

  // override_connect_timeout - computed: false, optional: true, required: false
  private _overrideConnectTimeout?: string; 
  public get overrideConnectTimeout() {
    return this.getStringAttribute('override_connect_timeout');
  }
  public set overrideConnectTimeout(value: string) {
    this._overrideConnectTimeout = value;
  }
  public resetOverrideConnectTimeout() {
    this._overrideConnectTimeout = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get overrideConnectTimeoutInput() {
    return this._overrideConnectTimeout;
  }

  // override_protocol - computed: false, optional: true, required: false
  private _overrideProtocol?: string; 
  public get overrideProtocol() {
    return this.getStringAttribute('override_protocol');
  }
  public set overrideProtocol(value: string) {
    this._overrideProtocol = value;
  }
  public resetOverrideProtocol() {
    this._overrideProtocol = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get overrideProtocolInput() {
    return this._overrideProtocol;
  }

  // id - computed: true, optional: false, required: false
  public get id() {
    return this.getStringAttribute('id');
  }

  // protocol - computed: true, optional: false, required: false
  public get protocol() {
    return this.getStringAttribute('protocol');
  }

  // start_node - computed: true, optional: false, required: false
  public get startNode() {
    return this.getStringAttribute('start_node');
  }

  // customization_hash - computed: true, optional: false, required: false
  public get customizationHash() {
    return this.getStringAttribute('customization_hash');
  }

  // target_ids - computed: true, optional: false, required: false
  public get targetIds() {
    return this.getListAttribute('target_ids');
  }

  // chain - computed: true, optional: false, required: false
  public get chain() {
    return this.getStringAttribute('chain');
  }

  // override_mesh_gateway - computed: false, optional: false, required: true
  private _overrideMeshGateway = new DataRegDiscoveryChainOverrideMeshGatewayOutputReference(this, "override_mesh_gateway");
  public get overrideMeshGateway() {
    return this._overrideMeshGateway;
  }
  public putOverrideMeshGateway(value: DataRegDiscoveryChainOverrideMeshGateway) {
    this._overrideMeshGateway.internalValue = value;
  }
  // Temporarily expose input value. Use with caution.
  public get overrideMeshGatewayInput() {
    return this._overrideMeshGateway.internalValue;
  }

  // =========
  // SYNTHESIS
  // =========

  protected override synthesizeAttributes(): { [name: string]: any } {
    return {
      service: cdktn.stringToTerraform(this._service),
      namespace: cdktn.stringToTerraform(this._namespace),
      datacenter: cdktn.stringToTerraform(this._datacenter),
      override_connect_timeout: cdktn.stringToTerraform(this._overrideConnectTimeout),
      override_protocol: cdktn.stringToTerraform(this._overrideProtocol),
      override_mesh_gateway: dataRegDiscoveryChainOverrideMeshGatewayToTerraform(this._overrideMeshGateway.internalValue),
    };
  }

  protected override synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      service: {
        value: cdktn.stringToHclTerraform(this._service),
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
      datacenter: {
        value: cdktn.stringToHclTerraform(this._datacenter),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      override_connect_timeout: {
        value: cdktn.stringToHclTerraform(this._overrideConnectTimeout),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      override_protocol: {
        value: cdktn.stringToHclTerraform(this._overrideProtocol),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      override_mesh_gateway: {
        value: dataRegDiscoveryChainOverrideMeshGatewayToHclTerraform(this._overrideMeshGateway.internalValue),
        isBlock: true,
        type: "struct",
        storageClassType: "DataRegDiscoveryChainOverrideMeshGateway",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
