"""Synthetic inputs for the test-bed programs: small, seeded, written in the formats the programs read."""
