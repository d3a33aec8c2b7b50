"""One module a command of the command line (the shape of pip's `commands/`)."""
