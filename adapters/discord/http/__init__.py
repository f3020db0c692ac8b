"""Discord over HTTP interactions: signed POSTs, answered in the HTTP response."""
