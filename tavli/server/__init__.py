"""The Tavli web app: an ASGI server with a WebSocket protocol, on SQLite or PostgreSQL.

``tavli serve`` runs it; ``create_app`` builds it for an ASGI server of your choice.
See docs/web.md.
"""
