#!/bin/bash
# SPDX-License-Identifier: MIT
# CI entry for the ravb backport: the full build with all checks, then the tests that prove two of its
# checks can fail (a corrupted patch, a patch adding a warning).
# Usage: tests/ci.sh [output dir for the JSON result]
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-.}
status=0

"$here/build" --result "$out/ravb-backport-result.json" || status=1
bash "$here/tests/broken-patch.sh" || status=1
bash "$here/tests/new-warning.sh" || status=1
exit "$status"
