"""The café around the tables: the players' accounts (``accounts``), the results and ratings of
the matches they finish (``results``), their pages and the leaderboards (``players``), and the
lobby where they find each other (``lobby``). It uses the matches (``tavli.server.play``), which
know nothing of it.
"""
