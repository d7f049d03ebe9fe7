"""The table socket's handlers, one module per feature (rooms/consumers.py is the transport)."""
