#!/usr/bin/env bash
# Re-records talosctl v1.14.0-rc.1's `gen` behaviour for this folder's cases: ../gen/record.sh run on
# this folder (same usage; ORACLE defaults to the v1.14.0-rc.1 reference program).
DATA_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd) exec "$(dirname "${BASH_SOURCE[0]}")/../gen/record.sh" "$@"
