"""Players: who they are (identity), and what their games made of them (ratings)."""
