"""The Tavli web app: an ASGI server with a WebSocket protocol, on SQLite or PostgreSQL.

``tavli serve`` runs it; ``create_app`` builds it for an ASGI server of your choice.
See docs/web.md.

Its modules stand in rooms, lowest first: ``storage`` (the database), ``play`` (the matches),
``cafe`` (accounts, ratings, the lobby) and ``coach`` (reviews, openings, analysis), ``realtime``
(the sockets kept live) and ``routes`` (every route, HTTP and WebSocket); the modules standing
here wire them together (``app``, ``lifespan``, ``workers``, ``timeouts``). docs/architecture.md,
"The server's rooms", says which may import which.
"""
