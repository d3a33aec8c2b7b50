"""Tournaments at a public table: who sits where each round and how rounds add up; no I/O."""
