import { JobspecError, parseJobspec } from '../../../src/agent/sched/jobspec';

const SECOND = 1e9;

const SERVICE_JOB = `
variable "image" {
  type        = string
  description = "container image"
  default     = "nginx:1.25"
}

variable "replicas" {
  type    = number
  default = 2
}

variable "datacenters" {
  type = list(string)
}

locals {
  service_name = "web-\${var.replicas}"
  labels       = { team = "platform" }
}

job "web" {
  region      = "eu"
  namespace   = "apps"
  datacenters = var.datacenters
  priority    = 70
  node_pool   = "edge"

  meta {
    owner = "platform"
    tier  = 1
  }

  constraint {
    attribute = "\${attr.kernel.name}"
    value     = "linux"
  }

  update {
    max_parallel     = 2
    min_healthy_time = "15s"
    healthy_deadline = "3m"
    auto_revert      = true
    canary           = 1
  }

  group "frontend" {
    count = var.replicas

    constraint {
      distinct_hosts = true
    }

    restart {
      attempts = 3
      interval = "1h30m"
      delay    = "20s"
      mode     = "delay"
    }

    ephemeral_disk {
      size = 500
    }

    network {
      mode = "bridge"
      port "http" {
        to = 8080
      }
      port "admin" {
        static = 9000
      }
    }

    service {
      name = local.service_name
      port = "http"
      tags = ["web", upper("v2")]

      check {
        type     = "http"
        path     = "/health"
        interval = "10s"
        timeout  = "2s"
      }
    }

    task "server" {
      driver = "docker"
      user   = "nobody"

      config {
        image = var.image
        ports = ["http"]
        args  = ["-port", "\${NOMAD_PORT_http}"]
        labels = local.labels

        mount {
          type   = "bind"
          source = "local"
          target = "/etc/app"
        }
        mount {
          type   = "tmpfs"
          target = "/tmp"
        }
      }

      env {
        PORT = "\${NOMAD_PORT_http}"
        MODE = "production"
      }

      resources {
        cpu    = 250
        memory = 128
      }

      template {
        destination = "local/app.conf"
        change_mode = "signal"
        change_signal = "SIGHUP"
        data        = <<-EOT
          listen = {{ env "NOMAD_PORT_http" }}
          name = \${local.service_name}
          EOT
      }

      kill_timeout = "30s"
      kill_signal  = "SIGTERM"

      logs {
        max_files     = 3
        max_file_size = 5
      }
    }
  }
}
`;

describe('parseJobspec: a service job', () => {
  const job = parseJobspec(SERVICE_JOB, {
    variables: 'datacenters = ["dc1", "dc2"]\nimage = "nginx:1.27"\n',
  });

  it('fills the job fields with API names', () => {
    expect(job).toMatchObject({
      ID: 'web',
      Name: 'web',
      Region: 'eu',
      Namespace: 'apps',
      Datacenters: ['dc1', 'dc2'],
      Priority: 70,
      NodePool: 'edge',
      Meta: { owner: 'platform', tier: '1' },
      Constraints: [{ LTarget: '${attr.kernel.name}', RTarget: 'linux', Operand: '=' }],
    });
    expect(job.Type).toBeUndefined();
  });

  it('converts durations to nanoseconds', () => {
    expect(job.Update).toEqual({
      MaxParallel: 2,
      MinHealthyTime: 15 * SECOND,
      HealthyDeadline: 180 * SECOND,
      AutoRevert: true,
      Canary: 1,
    });
    const g = job.TaskGroups?.[0];
    expect(g?.RestartPolicy).toEqual({
      Attempts: 3,
      Interval: 5400 * SECOND,
      Delay: 20 * SECOND,
      Mode: 'delay',
    });
    expect(g?.Tasks?.[0]?.KillTimeout).toBe(30 * SECOND);
  });

  it('decodes the group: count from a variable, constraint shorthand, disk, network ports', () => {
    const g = job.TaskGroups?.[0];
    expect(g?.Name).toBe('frontend');
    expect(g?.Count).toBe(2);
    expect(g?.Constraints).toEqual([{ LTarget: '', RTarget: '', Operand: 'distinct_hosts' }]);
    expect(g?.EphemeralDisk).toEqual({ SizeMB: 500 });
    expect(g?.Networks).toEqual([
      {
        Mode: 'bridge',
        DynamicPorts: [{ Label: 'http', Value: 0, To: 8080, HostNetwork: '' }],
        ReservedPorts: [{ Label: 'admin', Value: 9000, To: 0, HostNetwork: '' }],
      },
    ]);
  });

  it('decodes services with checks, using locals and functions', () => {
    expect(job.TaskGroups?.[0]?.Services).toEqual([
      {
        Name: 'web-2',
        PortLabel: 'http',
        Tags: ['web', 'V2'],
        Checks: [{ Type: 'http', Path: '/health', Interval: 10 * SECOND, Timeout: 2 * SECOND }],
      },
    ]);
  });

  it('decodes the task: free-form config with nested blocks, env, resources, template, logs', () => {
    const t = job.TaskGroups?.[0]?.Tasks?.[0];
    expect(t).toMatchObject({ Name: 'server', Driver: 'docker', User: 'nobody', KillSignal: 'SIGTERM' });
    expect(t?.Config).toEqual({
      image: 'nginx:1.27',
      ports: ['http'],
      args: ['-port', '${NOMAD_PORT_http}'],
      labels: { team: 'platform' },
      mount: [
        { type: 'bind', source: 'local', target: '/etc/app' },
        { type: 'tmpfs', target: '/tmp' },
      ],
    });
    expect(t?.Env).toEqual({ MODE: 'production', PORT: '${NOMAD_PORT_http}' });
    expect(t?.Resources).toEqual({ CPU: 250, MemoryMB: 128 });
    expect(t?.LogConfig).toEqual({ MaxFiles: 3, MaxFileSizeMB: 5 });
    expect(t?.Templates).toEqual([
      {
        DestPath: 'local/app.conf',
        ChangeMode: 'signal',
        ChangeSignal: 'SIGHUP',
        EmbeddedTmpl: 'listen = {{ env "NOMAD_PORT_http" }}\nname = web-2\n',
        Perms: '0644',
        Splay: 5 * SECOND,
        ErrMissingKey: false,
      },
    ]);
  });

  it('uses defaults when the variables text leaves them out', () => {
    const j = parseJobspec(SERVICE_JOB, { variables: 'datacenters = ["x"]' });
    expect(j.TaskGroups?.[0]?.Tasks?.[0]?.Config?.image).toBe('nginx:1.25');
  });

  it('fails on a variable with neither default nor value, naming it', () => {
    let err: unknown;
    try {
      parseJobspec(SERVICE_JOB);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(JobspecError);
    expect((err as JobspecError).summary).toBe('Unset variable "datacenters"');
    expect((err as JobspecError).line).toBe(13);
  });

  it('rejects values of the wrong type for a typed variable', () => {
    expect(() => parseJobspec(SERVICE_JOB, { variables: 'datacenters = "dc1"' })).toThrow(
      /Invalid value for variable; The value for datacenters is not compatible with the variable's type constraint: list of string required/,
    );
  });

  it('rejects values for undeclared variables', () => {
    expect(() => parseJobspec(SERVICE_JOB, { variables: 'datacenters = []\nnope = 1' })).toThrow(
      /Undefined variable; A "nope" variable was set/,
    );
  });
});

describe('parseJobspec: batch and dispatch jobs', () => {
  it('parses a periodic batch job', () => {
    const job = parseJobspec(`
job "report" {
  type = "batch"
  periodic {
    cron             = "*/15 * * * *"
    prohibit_overlap = true
    time_zone        = "Europe/Paris"
  }
  reschedule {
    attempts       = 2
    interval       = "1h"
    delay_function = "constant"
    unlimited      = false
  }
  group "run" {
    task "report" {
      driver = "exec"
      config {
        command = "/bin/report"
      }
    }
  }
}
`);
    expect(job.Type).toBe('batch');
    expect(job.Periodic).toEqual({
      Spec: '*/15 * * * *',
      SpecType: 'cron',
      ProhibitOverlap: true,
      TimeZone: 'Europe/Paris',
    });
    expect(job.Reschedule).toEqual({
      Attempts: 2,
      Interval: 3600 * SECOND,
      DelayFunction: 'constant',
      Unlimited: false,
    });
  });

  it('accepts several cron specs', () => {
    const job = parseJobspec(
      'job "r" {\n  periodic {\n    crons = ["0 1 * * *", "0 13 * * *"]\n    enabled = false\n  }\n}\n',
    );
    expect(job.Periodic).toEqual({ Specs: ['0 1 * * *', '0 13 * * *'], Enabled: false });
  });

  it('parses a parameterized job with a dispatch payload', () => {
    const job = parseJobspec(`
job "transcode" {
  type = "batch"
  parameterized {
    payload       = "required"
    meta_required = ["input"]
    meta_optional = ["profile"]
  }
  group "work" {
    task "ffmpeg" {
      driver = "raw_exec"
      dispatch_payload {
        file = "input.json"
      }
      lifecycle {
        hook    = "prestart"
      }
      config {
        command = "ffmpeg"
      }
    }
  }
}
`);
    expect(job.ParameterizedJob).toEqual({
      Payload: 'required',
      MetaRequired: ['input'],
      MetaOptional: ['profile'],
    });
    const t = job.TaskGroups?.[0]?.Tasks?.[0];
    expect(t?.DispatchPayload).toEqual({ File: 'input.json' });
    expect(t?.Lifecycle).toEqual({ Hook: 'prestart', Sidecar: false });
  });
});

describe('parseJobspec: HCL2 features', () => {
  it('expands dynamic blocks', () => {
    const job = parseJobspec(`
locals {
  ports = { http = 8080, grpc = 9090 }
}
job "d" {
  group "g" {
    network {
      dynamic "port" {
        for_each = local.ports
        labels   = [port.key]
        content {
          to = port.value
        }
      }
    }
  }
}
`);
    expect(job.TaskGroups?.[0]?.Networks?.[0]?.DynamicPorts).toEqual([
      { Label: 'grpc', Value: 0, To: 9090, HostNetwork: '' },
      { Label: 'http', Value: 0, To: 8080, HostNetwork: '' },
    ]);
  });

  it('expands dynamic blocks inside driver config', () => {
    const job = parseJobspec(`
job "d" {
  task "t" {
    config {
      dynamic "mount" {
        for_each = ["/a", "/b"]
        iterator = m
        content {
          target = m.value
          index  = m.key
        }
      }
    }
  }
}
`);
    expect(job.TaskGroups?.[0]?.Tasks?.[0]?.Config).toEqual({
      mount: [
        { index: 0, target: '/a' },
        { index: 1, target: '/b' },
      ],
    });
  });

  it('gives a task outside any group its own group', () => {
    const job = parseJobspec('job "solo" {\n  task "t" {\n    driver = "exec"\n  }\n}\n');
    expect(job.TaskGroups).toEqual([{ Name: 't', Tasks: [{ Name: 't', Driver: 'exec' }] }]);
  });

  it('accepts meta and env as attributes, for keys that are not identifiers', () => {
    const job = parseJobspec('job "m" {\n  meta = { "a.b" = "c", n = 2 }\n}\n');
    expect(job.Meta).toEqual({ 'a.b': 'c', n: '2' });
  });

  it('supports the remaining constraint and affinity shorthands', () => {
    const job = parseJobspec(`
job "c" {
  constraint {
    distinct_property = "\${meta.rack}"
    value             = "2"
  }
  constraint {
    attribute = "\${attr.os.version}"
    version   = ">= 20.04"
  }
  affinity {
    attribute = "\${node.datacenter}"
    value     = "dc1"
    weight    = -50
  }
  spread {
    attribute = "\${node.datacenter}"
    target "dc1" {
      percent = 70
    }
  }
}
`);
    expect(job.Constraints).toEqual([
      { LTarget: '${meta.rack}', RTarget: '2', Operand: 'distinct_property' },
      { LTarget: '${attr.os.version}', RTarget: '>= 20.04', Operand: 'version' },
    ]);
    expect(job.Affinities).toEqual([
      { LTarget: '${node.datacenter}', RTarget: 'dc1', Operand: '=', Weight: -50 },
    ]);
    expect(job.Spreads).toEqual([
      { Attribute: '${node.datacenter}', SpreadTarget: [{ Value: 'dc1', Percent: 70 }] },
    ]);
  });
});

describe('parseJobspec: Nomad decoding details', () => {
  it('wraps an object written as a config attribute into a one-item list, as Nomad does', () => {
    const job = parseJobspec(
      'job "q" {\n  task "t" {\n    config {\n      labels = { a = "b" }\n      auth "registry" {\n        user = "u"\n      }\n    }\n  }\n}\n',
    );
    expect(job.TaskGroups?.[0]?.Tasks?.[0]?.Config).toEqual({
      labels: [{ a: 'b' }],
      auth: [{ registry: [{ user: 'u' }] }],
    });
  });

  it('passes job and group vault blocks down to tasks without their own', () => {
    const job = parseJobspec(`
job "v" {
  vault {
    policies = ["job"]
  }
  group "g" {
    vault {
      policies = ["group"]
    }
    task "a" {}
    task "b" {
      vault {
        policies = ["task"]
        change_mode = "noop"
      }
    }
  }
  group "h" {
    task "c" {}
  }
}
`);
    const [g, h] = job.TaskGroups ?? [];
    expect(g?.Tasks?.map((t) => t.Secrets?.Policies)).toEqual([['group'], ['task']]);
    expect(g?.Tasks?.[1]?.Secrets).toMatchObject({ ChangeMode: 'noop', Env: true });
    expect(h?.Tasks?.[0]?.Secrets?.Policies).toEqual(['job']);
  });

  it('reads the variables block form and checks validation rules', () => {
    const src = `
variables {
  n = 3
}
variable "env" {
  default = "dev"
  validation {
    condition     = contains(["dev", "prod"], var.env)
    error_message = "The env must be dev or prod."
  }
}
job "x" {
  priority = var.n * 10
  meta {
    env = var.env
  }
}
`;
    expect(parseJobspec(src).Priority).toBe(30);
    expect(parseJobspec(src, { variables: 'env = "prod"' }).Meta).toEqual({ env: 'prod' });
    expect(() => parseJobspec(src, { variables: 'env = "qa"' })).toThrow(
      /Invalid value for varfile variable; The env must be dev or prod\./,
    );
  });
});

describe('parseJobspec: errors', () => {
  function errorOf(hcl: string): JobspecError {
    try {
      parseJobspec(hcl);
    } catch (e) {
      if (e instanceof JobspecError) return e;
      throw e;
    }
    throw new Error('expected a JobspecError');
  }

  it('names an unknown argument and its line, like Nomad', () => {
    const err = errorOf('job "x" {\n  group "g" {\n    foo = 1\n  }\n}\n');
    expect(err.message).toBe(
      'input.hcl:3,5-8: Unsupported argument; An argument named "foo" is not expected here.',
    );
  });

  it('suggests a close name and tells blocks from arguments', () => {
    expect(errorOf('job "x" {\n  datacenter = ["a"]\n}\n').detail).toBe(
      'An argument named "datacenter" is not expected here. Did you mean "datacenters"?',
    );
    expect(errorOf('job "x" {\n  group = 1\n}\n').detail).toContain(
      'Did you mean to define a block of type "group"?',
    );
    expect(errorOf('job "x" {\n  count {\n  }\n}\n').summary).toBe('Unsupported block type');
  });

  it('rejects values of the wrong type and bad durations', () => {
    expect(errorOf('job "x" {\n  priority = "high"\n}\n').message).toMatch(
      /^input\.hcl:2,14-20: Incorrect attribute value type; Inappropriate value for attribute "priority": a number is required/,
    );
    expect(errorOf('job "x" {\n  update {\n    stagger = "5 minutes"\n  }\n}\n').message).toMatch(
      /Unsuitable value type; Unsuitable duration value: time: invalid duration "5 minutes"/,
    );
  });

  it('requires a job block with one label, and only one', () => {
    expect(errorOf('variable "a" {\n  default = 1\n}\n').summary).toBe('Missing job block');
    expect(errorOf('job {\n}\n').summary).toBe('Missing name for job');
    expect(errorOf('job "a" {\n}\njob "b" {\n}\n').summary).toBe('Duplicate job block');
  });

  it('rejects a repeated single block', () => {
    const err = errorOf('job "x" {\n  update {\n  }\n  update {\n  }\n}\n');
    expect(err.summary).toBe('Duplicate update block');
    expect(err.line).toBe(4);
  });

  it('requires required arguments', () => {
    expect(errorOf('job "x" {\n  task "t" {\n    lifecycle {\n    }\n  }\n}\n').detail).toBe(
      'The argument "hook" is required, but no definition was found.',
    );
  });
});
