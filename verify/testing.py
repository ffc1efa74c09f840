"""A pytest helper: a user's regression test that their migrated program still gives the original's numbers.

    from verify.testing import assert_reproduces

    def test_migration_keeps_our_numbers(tmp_path):
        assert_reproduces("train.py", ["--model_dir={model_dir}", "--train_steps={steps}"], steps=20,
                          work_dir=tmp_path / "verify")

Mark such tests slow: they run the oracle twice and each side twice.
"""

from __future__ import annotations

from verify.api import Verified, verify


def assert_verified(verified: Verified) -> None:
    """Raise AssertionError with verify's diagnosis unless every side reproduces the oracle."""
    if verified.passed:
        return
    meaning = {1: "does not reproduce the original", 2: "could not be verified completely"}[verified.exit_code]
    lines = "\n  ".join(verified.diagnosis()) or "(no diagnosis)"
    raise AssertionError(f"{verified.result.program.script.name} {meaning} (exit {verified.exit_code}; "
                         f"work folder {verified.result.work_dir}):\n  {lines}")


def assert_reproduces(script, args, **options) -> Verified:
    """verify.api.verify(script, args, **options), then assert_verified; returns the result."""
    verified = verify(script, args, **options)
    assert_verified(verified)
    return verified
