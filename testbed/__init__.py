"""The real-world test bed of `verify`: public TPU programs, run tiny on generated data (docs/verify.md).

Only the manifest (which files of which repository at which commit, with sha256), the data
generators and the flags live here; the programs themselves are fetched into a folder outside
the repository and never committed.
"""
