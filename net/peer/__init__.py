"""What a player's client runs to sit at a table hosted elsewhere: the remote link, which
joins, keeps the sealed channel, reconnects, and checks the shuffle at the end."""
