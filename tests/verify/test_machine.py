"""The CPU fingerprint a golden records: read from /proc/cpuinfo and sysfs, real files here."""

from verify.machine import cpu_fingerprint

CPUINFO = """processor\t: 0
vendor_id\t: AuthenticAMD
cpu family\t: 26
model\t\t: 2
model name\t: AMD EPYC
flags\t\t: fpu sse sse2 sse4_1 sse4_2 avx avx2 fma avx512f avx512bw

processor\t: 1
vendor_id\t: GenuineIntel
model name\t: another CPU block, never read
"""


def _cache(root, index, level, kind, size):
    folder = root / f"index{index}"
    folder.mkdir(parents=True)
    for name, value in (("level", level), ("type", kind), ("size", size)):
        (folder / name).write_text(value + "\n")


def test_fingerprint_reads_the_first_cpu_its_vector_flags_and_caches(tmp_path):
    (tmp_path / "cpuinfo").write_text(CPUINFO)
    caches = tmp_path / "cache"
    _cache(caches, 0, "1", "Data", "48K")
    _cache(caches, 2, "2", "Unified", "1024K")
    fingerprint = cpu_fingerprint(tmp_path / "cpuinfo", caches)
    assert fingerprint["vendor"] == "AuthenticAMD"
    assert (fingerprint["model_name"], fingerprint["family"], fingerprint["model"]) == ("AMD EPYC", "26", "2")
    assert fingerprint["vector_flags"] == ["sse4_1", "sse4_2", "avx", "avx2", "fma", "avx512f", "avx512bw"]
    assert fingerprint["caches"] == ["L1 Data 48K", "L2 Unified 1024K"]


def test_two_machines_that_differ_only_in_cache_size_are_different_machines(tmp_path):
    (tmp_path / "cpuinfo").write_text(CPUINFO)
    small, large = tmp_path / "small", tmp_path / "large"
    _cache(small, 3, "3", "Unified", "16384K")
    _cache(large, 3, "3", "Unified", "32768K")
    assert cpu_fingerprint(tmp_path / "cpuinfo", small) != cpu_fingerprint(tmp_path / "cpuinfo", large)


def test_without_proc_cpuinfo_the_platform_string_stands_in(tmp_path):
    fingerprint = cpu_fingerprint(tmp_path / "absent", tmp_path / "absent_cache")
    assert set(fingerprint) == {"machine", "processor"}


def test_this_machine_has_a_fingerprint():
    fingerprint = cpu_fingerprint()
    assert fingerprint["machine"]
    if "model_name" in fingerprint:
        assert fingerprint["caches"] and fingerprint["vector_flags"], fingerprint
