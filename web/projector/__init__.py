"""The projector view: a full-screen page per tournament, read from across the room."""
