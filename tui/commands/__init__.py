"""The command line's commands that live in modules of their own (tui.cli registers them)."""
