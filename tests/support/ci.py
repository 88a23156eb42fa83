"""Whether this run is the CI run, where every service must be real and none is skipped."""

from __future__ import annotations

import os

IN_CI = os.environ.get("CI", "").lower() == "true"
