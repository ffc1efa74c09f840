"""The machine an oracle ran on, as far as it decides the last bits of the oracle's floats.

TF 1.15's CPU kernels (Eigen) choose their matrix-product blocking from the cache sizes they
read off the CPU at run time, and the vector instructions they use from its flags, so the same
program, wheel and seed sum in a different order on another CPU. Measured: two TF 1.15 runs of a
shipped example on one machine agree to the last bit, but the goldens recorded on the project's
first machine and re-run on an AMD EPYC (family 26, 32 MiB L3) differ by up to 1.2e-5 of a
value's scale (bert_classifier's final weights; losses 4.2e-7); the TF 2.15 examples matched
exactly. A golden therefore records this fingerprint, and "the oracle still produces the golden
exactly" is only a claim on a machine with the same fingerprint (tests/regression/
test_oracle_goldens.py).
"""

from __future__ import annotations

import platform
from pathlib import Path

# CPU flags that select a different kernel path in Eigen or oneDNN.
VECTOR_FLAGS = ("sse4_1", "sse4_2", "avx", "avx2", "fma", "f16c", "avx512f", "avx512bw",
                "avx512vl", "avx512dq", "avx512_vnni", "avx512_bf16", "avx_vnni", "amx_bf16",
                "amx_tile", "asimd", "sve")

CPUINFO = Path("/proc/cpuinfo")
CACHE_DIR = Path("/sys/devices/system/cpu/cpu0/cache")


def _first_cpu(cpuinfo_text: str) -> dict[str, str]:
    """The `key: value` fields of the first processor block of /proc/cpuinfo."""
    fields: dict[str, str] = {}
    for line in cpuinfo_text.splitlines():
        if not line.strip():
            if fields:
                break
            continue
        key, _, value = line.partition(":")
        fields.setdefault(key.strip(), value.strip())
    return fields


def _caches(cache_dir: Path) -> list[str]:
    """Cache levels of the first CPU as 'L2 Unified 2048K', in the kernel's index order."""
    caches = []
    for index in sorted(cache_dir.glob("index*")):
        try:
            level, kind, size = ((index / name).read_text().strip() for name in ("level", "type", "size"))
        except OSError:
            continue
        caches.append(f"L{level} {kind} {size}")
    return caches


def cpu_fingerprint(cpuinfo: Path = CPUINFO, cache_dir: Path = CACHE_DIR) -> dict:
    """What identifies this CPU's float behaviour: model, vector flags, cache sizes.

    Off Linux (no /proc/cpuinfo) only the platform's own processor string is known, which is
    still enough to tell two machines apart conservatively (a mismatch only relaxes the check).
    """
    try:
        fields = _first_cpu(cpuinfo.read_text())
    except OSError:
        return {"machine": platform.machine(), "processor": platform.processor()}
    flags = set((fields.get("flags") or fields.get("Features") or "").split())
    return {
        "machine": platform.machine(),
        "vendor": fields.get("vendor_id", fields.get("CPU implementer", "")),
        "model_name": fields.get("model name", ""),
        "family": fields.get("cpu family", ""),
        "model": fields.get("model", fields.get("CPU part", "")),
        "vector_flags": [flag for flag in VECTOR_FLAGS if flag in flags],
        "caches": _caches(cache_dir),
    }
