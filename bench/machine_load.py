"""How busy the rest of the machine was while a timed call ran: other processes' CPU, in cores.

The 1-minute load average moves too slowly to tell a clean 2-second call from one that shared
its cores, so each timed call also reads the machine's busy CPU time from /proc/stat before and
after: what the machine used beyond the timed process itself, divided by the call's wall time,
is how many cores other processes took meanwhile (0 on an idle machine, up to the core count).
"""

from __future__ import annotations

import os

_TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
_IDLE_FIELDS = (3, 4)  # idle, iowait in /proc/stat's `cpu` line (after the label)


def busy_cpu_seconds(stat_path: str = "/proc/stat") -> float | None:
    """CPU seconds all cores have spent busy since boot (None where /proc/stat is missing)."""
    try:
        with open(stat_path) as stat:
            fields = stat.readline().split()
    except OSError:
        return None
    if not fields or fields[0] != "cpu":
        return None
    ticks = [int(value) for value in fields[1:9]]  # user..steal; guest time is inside user
    busy = sum(value for index, value in enumerate(ticks) if index not in _IDLE_FIELDS)
    return busy / _TICKS_PER_SECOND


def other_cores(busy_before, busy_after, own_cpu_seconds: float, wall_seconds: float):
    """Cores other processes used on average during a call (never below 0), or None."""
    if busy_before is None or busy_after is None or wall_seconds <= 0:
        return None
    return max(0.0, (busy_after - busy_before - own_cpu_seconds) / wall_seconds)
