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


def assert_probe_run_matches(live: dict, golden: dict, rtol: float) -> None:
    """The design probe's live TF 1.15 run against its golden: equal where the golden was recorded
    on this CPU; elsewhere the same steps and accuracy, losses within `rtol` (the last bits of TF
    1.15's sums move with the CPU: on an AMD EPYC the eval loss of the golden recorded on another
    CPU came out 0.86122042 against 0.86122048)."""
    from tests.support.numbers import assert_close

    if recorded_here(golden):
        assert without_machine(live) == without_machine(golden)
        return
    assert live["tensorflow"] == golden["tensorflow"]
    assert live["global_step"] == golden["global_step"]
    assert live["eval_accuracy"] == golden["eval_accuracy"]
    assert sorted(live["train_loss"]) == sorted(golden["train_loss"])
    for step, loss in golden["train_loss"].items():
        assert_close(live["train_loss"][step], loss, rtol=rtol, what=f"TF 1.15 loss at step {step}")
    assert_close(live["eval_loss"], golden["eval_loss"], rtol=rtol, what="TF 1.15 eval loss")
