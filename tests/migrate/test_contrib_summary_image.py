"""tf.contrib.summary.image migrated: the same pixels as TF 1.15 recorded (oracle, eager).

It was rewritten to tf.summary.image(max_outputs=), which clips float images to [0, 1]: values
[-1, -0.5, 0, 1] were recorded as pixels [0, 0, 0, 255] where TF 1.15 recorded [1, 64, 128, 255]
(it shifted 0 to 128 when a value was negative). Now it goes to contrib's own function, which
TF 2.21 keeps (estimator_bridge.compat.contrib_reexports.summary_image).
"""

import pytest

from migrate.engine import migrate_text
from tests.support.oracles import REPO_ROOT, current_python, oracle_env, oracle_python, run_json

PROGRAMS = REPO_ROOT / "tests" / "migrate" / "programs"
PROGRAM = PROGRAMS / "contrib_summary_image_program.py"
SOURCE = PROGRAMS / "contrib_summary_image_source.py"


def test_contrib_image_is_not_rewritten_to_the_clipping_tf2_image():
    migrated, findings = migrate_text(SOURCE.read_text(), str(SOURCE))
    assert "estimator_bridge.compat.contrib_reexports.summary_image(" in migrated
    assert "summary.image" not in migrated and not findings


@pytest.mark.oracle
def test_migrated_contrib_image_records_tf115_s_pixels(tmp_path):
    (tmp_path / "tf115").mkdir()
    (tmp_path / "current").mkdir()
    expected = run_json(oracle_python("tf115"), PROGRAM, str(SOURCE), str(tmp_path / "tf115"))
    migrated = tmp_path / "migrated_source.py"
    migrated.write_text(migrate_text(SOURCE.read_text(), str(SOURCE))[0])
    env = oracle_env()
    env["PYTHONPATH"] = str(REPO_ROOT)
    ours = run_json(current_python(), PROGRAM, str(migrated), str(tmp_path / "current"), env=env)
    assert expected["images"]["generated/image/0@4"] == [1, 64, 128, 255]
    assert sorted(expected["images"]) == [f"{tag}/image/{i}@4" for tag, count in (("all", 3), ("generated", 2))
                                          for i in range(count)]
    assert ours == expected
