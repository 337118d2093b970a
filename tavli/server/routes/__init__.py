"""The server's doors: every route a client reaches, HTTP and WebSocket, and what they share.

The pages (``pages``), the JSON API (``json_api``, ``account_api``, ``lobby_api``), the two
WebSockets (``match_socket``, a match's; ``lobby_socket``, the start page's), what every handler
reads (``context``), the limits that keep one client from holding the server (``limits``,
``cross_site``) and the answers besides JSON (``responses``). A handler checks and translates;
the rules it carries out are the floors below (docs/architecture.md).
"""
