// https://registry.terraform.io/providers/cdktf-sched/sched/0.1.0/docs/data-sources/allocations
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktn from 'cdktn';

// Configuration

export interface DataSchedAllocationsConfig extends cdktn.TerraformMetaArguments {
  /**
  * Filter expression over allocation fields, e.g. `JobID == "web" and ClientStatus == "running"`.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/sched/0.1.0/docs/data-sources/allocations#filter DataSchedAllocations#filter}
  */
  readonly filter?: string;
  /**
  * Only allocations whose ID starts with this.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/sched/0.1.0/docs/data-sources/allocations#prefix DataSchedAllocations#prefix}
  */
  readonly prefix?: string;
  /**
  * Namespace to search ("*" for all; default: the provider namespace, else "default").
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/sched/0.1.0/docs/data-sources/allocations#namespace DataSchedAllocations#namespace}
  */
  readonly namespace?: string;
}
export interface DataSchedAllocationsAllocations {
}

export function dataSchedAllocationsAllocationsToTerraform(struct?: DataSchedAllocationsAllocations): any {
  if (!cdktn.canInspect(struct) || cdktn.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktn.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdktn.io/docs/concepts/resources#references");
  }
  return {
  }
}


export function dataSchedAllocationsAllocationsToHclTerraform(struct?: DataSchedAllocationsAllocations): any {
  if (!cdktn.canInspect(struct) || cdktn.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktn.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdktn.io/docs/concepts/resources#references");
  }
  const attrs = {
  };
  return attrs;
}

export class DataSchedAllocationsAllocationsOutputReference extends cdktn.ComplexObject {
  private isEmptyObject = false;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  * @param complexObjectIndex the index of this item in the list
  * @param complexObjectIsFromSet whether the list is wrapping a set (will add tolist() to be able to access an item via an index)
  */
  public constructor(terraformResource: cdktn.IInterpolatingParent, terraformAttribute: string, complexObjectIndex: number, complexObjectIsFromSet: boolean) {
    super(terraformResource, terraformAttribute, complexObjectIsFromSet, complexObjectIndex);
  }

  public get internalValue(): DataSchedAllocationsAllocations | undefined {
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: DataSchedAllocationsAllocations | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
    }
  }

  // id - computed: true, optional: false, required: false
  public get id() {
    return this.getStringAttribute('id');
  }

  // eval_id - computed: true, optional: false, required: false
  public get evalId() {
    return this.getStringAttribute('eval_id');
  }

  // name - computed: true, optional: false, required: false
  public get name() {
    return this.getStringAttribute('name');
  }

  // namespace - computed: true, optional: false, required: false
  public get namespace() {
    return this.getStringAttribute('namespace');
  }

  // node_id - computed: true, optional: false, required: false
  public get nodeId() {
    return this.getStringAttribute('node_id');
  }

  // node_name - computed: true, optional: false, required: false
  public get nodeName() {
    return this.getStringAttribute('node_name');
  }

  // job_id - computed: true, optional: false, required: false
  public get jobId() {
    return this.getStringAttribute('job_id');
  }

  // job_type - computed: true, optional: false, required: false
  public get jobType() {
    return this.getStringAttribute('job_type');
  }

  // job_version - computed: true, optional: false, required: false
  public get jobVersion() {
    return this.getNumberAttribute('job_version');
  }

  // task_group - computed: true, optional: false, required: false
  public get taskGroup() {
    return this.getStringAttribute('task_group');
  }

  // desired_status - computed: true, optional: false, required: false
  public get desiredStatus() {
    return this.getStringAttribute('desired_status');
  }

  // client_status - computed: true, optional: false, required: false
  public get clientStatus() {
    return this.getStringAttribute('client_status');
  }

  // deployment_healthy - computed: true, optional: false, required: false
  public get deploymentHealthy() {
    return this.getBooleanAttribute('deployment_healthy');
  }

  // followup_eval_id - computed: true, optional: false, required: false
  public get followupEvalId() {
    return this.getStringAttribute('followup_eval_id');
  }

  // next_allocation - computed: true, optional: false, required: false
  public get nextAllocation() {
    return this.getStringAttribute('next_allocation');
  }

  // preempted_by_allocation - computed: true, optional: false, required: false
  public get preemptedByAllocation() {
    return this.getStringAttribute('preempted_by_allocation');
  }

  // create_index - computed: true, optional: false, required: false
  public get createIndex() {
    return this.getNumberAttribute('create_index');
  }

  // modify_index - computed: true, optional: false, required: false
  public get modifyIndex() {
    return this.getNumberAttribute('modify_index');
  }

  // create_time - computed: true, optional: false, required: false
  public get createTime() {
    return this.getNumberAttribute('create_time');
  }

  // modify_time - computed: true, optional: false, required: false
  public get modifyTime() {
    return this.getNumberAttribute('modify_time');
  }
}

export class DataSchedAllocationsAllocationsList extends cdktn.ComplexList {

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
  public get(index: number): DataSchedAllocationsAllocationsOutputReference {
    return new DataSchedAllocationsAllocationsOutputReference(this.terraformResource, this.terraformAttribute, index, this.wrapsSet);
  }
}

/**
* Represents a {@link https://registry.terraform.io/providers/cdktf-sched/sched/0.1.0/docs/data-sources/allocations sched_allocations}
*/
export class DataSchedAllocations extends cdktn.TerraformDataSource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "sched_allocations";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTN code for importing a DataSchedAllocations resource upon running "cdktn plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the DataSchedAllocations to import
  * @param importFromId The id of the existing DataSchedAllocations that should be imported. Refer to the {@link https://registry.terraform.io/providers/cdktf-sched/sched/0.1.0/docs/data-sources/allocations#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the DataSchedAllocations to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktn.TerraformProvider) {
        return new cdktn.ImportableResource(scope, importToId, { terraformResourceType: "sched_allocations", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/cdktf-sched/sched/0.1.0/docs/data-sources/allocations sched_allocations} Data Source
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options DataSchedAllocationsConfig = {}
  */
  public constructor(scope: Construct, id: string, config: DataSchedAllocationsConfig = {}) {
    super(scope, id, {
      terraformResourceType: 'sched_allocations',
      terraformGeneratorMetadata: {
        providerName: 'sched',
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
    this._filter = config.filter;
    this._prefix = config.prefix;
    this._namespace = config.namespace;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // filter - computed: false, optional: true, required: false
  private _filter?: string; 
  public get filter() {
    return this.getStringAttribute('filter');
  }
  public set filter(value: string) {
    this._filter = value;
  }
  public resetFilter() {
    this._filter = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get filterInput() {
    return this._filter;
  }

  // prefix - computed: false, optional: true, required: false
  private _prefix?: string; 
  public get prefix() {
    return this.getStringAttribute('prefix');
  }
  public set prefix(value: string) {
    this._prefix = value;
  }
  public resetPrefix() {
    this._prefix = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get prefixInput() {
    return this._prefix;
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

  // allocations - computed: true, optional: false, required: false
  private _allocations = new DataSchedAllocationsAllocationsList(this, "allocations", false);
  public get allocations() {
    return this._allocations;
  }

  // =========
  // SYNTHESIS
  // =========

  protected override synthesizeAttributes(): { [name: string]: any } {
    return {
      filter: cdktn.stringToTerraform(this._filter),
      prefix: cdktn.stringToTerraform(this._prefix),
      namespace: cdktn.stringToTerraform(this._namespace),
    };
  }

  protected override synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      filter: {
        value: cdktn.stringToHclTerraform(this._filter),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      prefix: {
        value: cdktn.stringToHclTerraform(this._prefix),
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
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
