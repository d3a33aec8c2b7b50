"""The terminal table: a Textual app, its screens and widgets, and the command line."""
