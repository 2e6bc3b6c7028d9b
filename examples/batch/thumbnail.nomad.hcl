# A parameterized batch job: registering it runs nothing; every dispatch creates a child job that
# receives the dispatch payload as a file and the dispatch meta as NOMAD_META_* variables.
variable "datacenter" {
  type    = string
  default = "dc1"
}

variable "work_time" {
  type        = string
  description = "How long one thumbnail takes (the dev agent's mock driver runs the task this long)."
  default     = "5s"
}

job "thumbnail" {
  type        = "batch"
  datacenters = [var.datacenter]

  parameterized {
    payload       = "required"
    meta_required = ["image_id"]
    meta_optional = ["size"]
  }

  meta {
    size = "128x128"
  }

  group "render" {
    restart {
      attempts = 1
      mode     = "fail"
    }

    task "render" {
      driver = "docker"

      config {
        image   = "example/thumbnailer:1.4"
        args    = ["--image", "${NOMAD_META_image_id}", "--size", "${NOMAD_META_size}", "--input", "local/input.json"]
        run_for = var.work_time
      }

      dispatch_payload {
        file = "input.json"
      }

      resources {
        cpu    = 500
        memory = 256
      }
    }
  }
}
