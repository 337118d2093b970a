"""The migrations, oldest first: each file is one step of the schema."""
