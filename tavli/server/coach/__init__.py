"""The coach: matches reviewed (``review``), the opening tables (``openings_view``), any position
analysed (``position_analysis``) and each side's chance of winning a match being played
(``chance_watch``), over ``tavli.study`` and the bots.
"""
