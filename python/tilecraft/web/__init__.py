"""Play in the browser: ``tilecraft serve`` (see server.py) and its static page."""
