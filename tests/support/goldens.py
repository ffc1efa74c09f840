"""A golden's last bits are a claim about the CPU it was recorded on (verify/machine.py).

TF 1.15's kernels sum in an order chosen from the CPU's cache sizes and vector flags; two runs on
one machine agree exactly, runs on two machines do not (measured: docs/testing.md). Recorders
store `cpu_fingerprint()` under MACHINE_KEY; the oracle checks "the golden is what TF 1.15 computes
now" demand equality only where `recorded_here`, and elsewhere the tolerance the bridge is held to.
"""

from __future__ import annotations

from verify.machine import cpu_fingerprint

MACHINE_KEY = "machine"


def with_machine(document: dict) -> dict:
    """The recorded document plus the CPU it was recorded on."""
    return {**document, MACHINE_KEY: cpu_fingerprint()}


def recorded_here(golden: dict) -> bool:
    """Was `golden` recorded on a CPU like this one? (False for goldens that name none.)"""
    return golden.get(MACHINE_KEY) == cpu_fingerprint()


def without_machine(document: dict) -> dict:
    return {key: value for key, value in document.items() if key != MACHINE_KEY}
