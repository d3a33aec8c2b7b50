"""The command line's commands, one module each: `add_parser(sub)` and the function it runs."""
