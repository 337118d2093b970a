"""Study: a match's analysis (``analysis``), the opening tables (``openings``) and each side's
chance of winning a match (``chances``), built on the bots' networks. See docs/analysis.md.
"""
