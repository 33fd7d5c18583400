"""Decisive Victory (seed 003, spec decisive-victory.md): the rules as a pure library."""
