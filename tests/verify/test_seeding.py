"""What verify copies into a seeded model_dir (verify/pipeline.py: checkpoint_files, seed_model_dir)."""

from __future__ import annotations

from verify.pipeline import Ckpt0Capture, checkpoint_files, trained_further
from verify.sides import seed_model_dir


def write_model_dir(folder, steps):
    folder.mkdir()
    for step in steps:
        for ext in ("index", "data-00000-of-00001", "meta"):
            (folder / f"model.ckpt-{step}.{ext}").write_bytes(f"{step}.{ext}".encode())
    latest = f"model.ckpt-{steps[-1]}"
    (folder / "checkpoint").write_text(f'model_checkpoint_path: "{latest}"\n'
                                       f'all_model_checkpoint_paths: "{latest}"\n')


def test_the_final_checkpoint_is_seeded_with_its_meta(tmp_path):
    """google-research/albert's run_pretraining.py copies model.ckpt-N.meta to model.ckpt-best.meta
    after its evaluation: seeded without it, the oracle's exact phase failed (VER005, 2026-11-27)."""
    write_model_dir(tmp_path / "run1", [0, 6])
    prefix, files = checkpoint_files(tmp_path / "run1")
    assert prefix == "model.ckpt-6"
    assert sorted(f.name for f in files) == [
        "model.ckpt-6.data-00000-of-00001", "model.ckpt-6.index", "model.ckpt-6.meta"]
    seed_model_dir(tmp_path / "exact", files, prefix)
    assert (tmp_path / "exact" / "model.ckpt-6.meta").read_bytes() == b"6.meta"
    assert 'model_checkpoint_path: "model.ckpt-6"' in (tmp_path / "exact" / "checkpoint").read_text()


def test_a_program_that_renames_its_checkpoint_after_evaluating_did_not_train_further():
    """google-research/albert's run_classifier.py renames model.ckpt-6 to model.ckpt-best after its
    evaluation: the exact phase's state file then names no existing checkpoint (final_checkpoint
    None); verify called that VER002 'went on from model.ckpt-6 to None' (2026-11-27)."""
    reference = {"final_checkpoint": "model.ckpt-6", "scalars": {"loss": {"6": 0.7}}}
    evaluated_only = {"final_checkpoint": None, "scalars": {}, "evaluation": {"eval": {"loss": {"6": 0.7}}}}
    assert trained_further(evaluated_only, reference) is None
    assert trained_further({"final_checkpoint": "model.ckpt-6", "scalars": {}}, reference) is None
    # Training writes summaries (and a newer checkpoint): still reported, renamed or not.
    trained_then_renamed = {"final_checkpoint": None, "scalars": {"loss": {"8": 0.6}}}
    assert "went on from model.ckpt-6 to None" in trained_further(trained_then_renamed, reference)
    assert "to model.ckpt-8" in trained_further({"final_checkpoint": "model.ckpt-8", "scalars": {}}, reference)


def test_ckpt0_is_captured_without_the_meta_the_saver_is_still_writing(tmp_path):
    """TF 1.15's Saver writes model.ckpt-0.meta after the state file, as `model.ckpt-0.meta.tmp<hex>`
    renamed when done: copying it raised FileNotFoundError and stopped verify (tensorflow/tpu's
    show_and_tell, whose Inception v3 graph makes the .meta slow to write). Only the files a
    restore reads are copied."""
    write_model_dir(tmp_path / "run1", [0])
    (tmp_path / "run1" / "model.ckpt-0.meta").unlink()
    (tmp_path / "run1" / "model.ckpt-0.meta.tmp09db4bec371e41f48bb993debf241e6e").write_bytes(b"partial")
    capture = Ckpt0Capture(tmp_path / "run1", tmp_path / "start")
    capture()
    assert sorted(f.name for f in capture.files) == ["model.ckpt-0.data-00000-of-00001", "model.ckpt-0.index"]
