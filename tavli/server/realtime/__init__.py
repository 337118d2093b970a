"""What keeps the WebSockets live: the open connections of each match (``hub``), each one's queue
of sends (``outbox``), the messages a client may send and how fast (``protocol``), and the
``state`` message it is sent (``state_message``). The sockets' routes are ``tavli.server.routes``'.
"""
