"""The command line's commands that live in a module of their own (one module a command)."""
