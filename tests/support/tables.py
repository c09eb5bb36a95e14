"""How the tests' games are timed when the timing is not what a test is about."""

#: Days per move, no clock: nothing runs out while a test looks at the game.
CORRESPONDENCE = {"clock_initial": None, "clock_increment": None, "correspondence_days": 3}
