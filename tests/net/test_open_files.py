"""A server's connections are files: a relay (and an SSH table) started under the usual soft
limit of 1,024 raises it to the hard limit before it takes any, or it would turn players away
at a few hundred rooms with plenty of memory and CPU left."""

from __future__ import annotations

import resource
import subprocess
import sys

RAISED = """
import resource
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))
from net.relay.limits import raise_open_files
print(raise_open_files(), resource.getrlimit(resource.RLIMIT_NOFILE)[0])
"""


def test_a_relay_process_raises_its_soft_file_limit_to_the_hard_one() -> None:
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    out = subprocess.run([sys.executable, "-c", RAISED], capture_output=True, text=True,
                         check=True).stdout.split()
    said, now = int(out[0]), int(out[1])
    assert said == now
    expected = 65536 if hard == resource.RLIM_INFINITY else hard
    assert now == expected > 256
