"""The database: its tables (``schema``), the matches' actions stored and read (``store``), the
schema brought up to date at each start (``migrate``, with Alembic's ``migrations``), and the
keys players' names are stored and compared under (``names``). The lowest floor of the server:
it imports none of the others.
"""
