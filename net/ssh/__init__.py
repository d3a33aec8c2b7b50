"""The built-in SSH server: each SSH session runs the ordinary app on a pseudo-terminal of
its own, and the server runs the relay those apps meet on."""
