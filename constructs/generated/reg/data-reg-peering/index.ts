// https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/data-sources/peering
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from 'cdktf';

// Configuration

export interface DataRegPeeringConfig extends cdktf.TerraformMetaArguments {
  /**
  * Name of the peer.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/data-sources/peering#peer_name DataRegPeering#peer_name}
  */
  readonly peerName: string;
  /**
  * Partition of the peering.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/data-sources/peering#partition DataRegPeering#partition}
  */
  readonly partition?: string;
}

/**
* Represents a {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/data-sources/peering reg_peering}
*/
export class DataRegPeering extends cdktf.TerraformDataSource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "reg_peering";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a DataRegPeering resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the DataRegPeering to import
  * @param importFromId The id of the existing DataRegPeering that should be imported. Refer to the {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/data-sources/peering#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the DataRegPeering to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "reg_peering", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs/data-sources/peering reg_peering} Data Source
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options DataRegPeeringConfig
  */
  public constructor(scope: Construct, id: string, config: DataRegPeeringConfig) {
    super(scope, id, {
      terraformResourceType: 'reg_peering',
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
  }

  // ==========
  // ATTRIBUTES
  // ==========

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

  // id - computed: true, optional: false, required: false
  public get id() {
    return this.getStringAttribute('id');
  }

  // state - computed: true, optional: false, required: false
  public get state() {
    return this.getStringAttribute('state');
  }

  // peer_id - computed: true, optional: false, required: false
  public get peerId() {
    return this.getStringAttribute('peer_id');
  }

  // peer_server_name - computed: true, optional: false, required: false
  public get peerServerName() {
    return this.getStringAttribute('peer_server_name');
  }

  // peer_server_addresses - computed: true, optional: false, required: false
  public get peerServerAddresses() {
    return this.getListAttribute('peer_server_addresses');
  }

  // meta - computed: true, optional: false, required: false
  private _meta = new cdktf.StringMap(this, "meta");
  public get meta() {
    return this._meta;
  }

  // deleted_at - computed: true, optional: false, required: false
  public get deletedAt() {
    return this.getStringAttribute('deleted_at');
  }

  // =========
  // SYNTHESIS
  // =========

  protected override synthesizeAttributes(): { [name: string]: any } {
    return {
      peer_name: cdktf.stringToTerraform(this._peerName),
      partition: cdktf.stringToTerraform(this._partition),
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
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
