"""Tables: the authoritative host session, the links a screen talks through, and the wire."""
