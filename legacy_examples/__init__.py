"""TF 1.x-era programs, written as people wrote them then, and the tools that compare their numbers."""
