"""A niced process stays niced where the kernel groups processes by session.

``nice`` orders a process only against the others of its scheduling group. On Linux with
autogroups (``/proc/sys/kernel/sched_autogroup_enabled``, on by default on many
distributions) every session is a group of its own, sharing the CPU equally with the
others whatever their nice values; and honcho, the tests' and the benchmarks' servers
start each Procfile process in a session of its own. So a process that leads its session
gives that session's autogroup its own nice value: the Procfile's ``mining`` worker
(``nice -n 19``, or ``MINING_NICE``) then takes only the CPU that the web and the bots
leave, as meant.
"""

from __future__ import annotations

import os
from pathlib import Path

AUTOGROUP = Path("/proc/self/autogroup")


def autogroup_follows_nice() -> bool:
    """Give this session's autogroup this process's nice value, when the process is niced
    and leads its session (so the group is its own and its children's); True if done."""
    niceness = os.nice(0)
    if niceness <= 0 or os.getsid(0) != os.getpid() or not AUTOGROUP.exists():
        return False
    try:
        AUTOGROUP.write_text(str(niceness))
    except OSError:  # not Linux, or not allowed: plain nice is what remains
        return False
    return True
