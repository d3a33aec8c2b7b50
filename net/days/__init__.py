"""Play over days: turn-based games the table hosts itself, in its store, while their players
come and go (docs/ARCHITECTURE.md, "Play over days")."""
