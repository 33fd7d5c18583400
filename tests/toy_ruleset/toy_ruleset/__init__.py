"""A toy fifth ruleset (issue 27): tug of war, plugged in through entry points, no shared file edited."""
