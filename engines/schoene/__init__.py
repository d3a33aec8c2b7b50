"""Schöne Sch#!?e ("No Thanks!"), with the lucky-pig expansion."""

from engines.schoene.rules import SchoeneEngine

ENGINE = SchoeneEngine()

__all__ = ["ENGINE", "SchoeneEngine"]
