"""The authoritative table without a network: one game's session, its interrupt windows, the
fair-shuffle arithmetic, and the link a screen talks through. Local play runs only this;
a hosted game runs the same session behind `net.host`."""
