"""The relay: a websocket server that knows rooms, connections and limits, never games. It
routes frames between a room's host and its peers and cannot read what they seal."""
